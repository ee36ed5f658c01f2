package io.github.kaeshuffle.it

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Every workload at `tiny` size in local[4], with KAE Shuffle under every codec and both the
 * Kryo and Java serializers, gives exactly the result of Spark's built-in shuffle.
 */
class WorkloadDifferentialSuite extends AnyFunSuite {
  private val Slices = 4

  private def runAll(codec: Option[String], serializer: String): Map[String, WorkloadJobs.Digest] =
    Sessions.withSession(Sessions.conf(codec, serializer)) { spark =>
      if (codec.isDefined) {
        assert(KaeSparkAccess.usesKaeShuffle(spark.sparkContext))
      }
      WorkloadJobs.Names.map { w =>
        w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, Slices)
      }.toMap
    }

  for (serializer <- Seq(Sessions.Kryo, Sessions.Java)) {
    val serializerName = serializer.split('.').last
    lazy val expected = runAll(None, serializer)
    for (codec <- Sessions.Codecs) {
      test(s"all workloads, codec $codec, $serializerName") {
        val actual = runAll(Some(codec), serializer)
        for (w <- WorkloadJobs.Names) {
          assert(actual(w).sameAs(expected(w)),
            s"$w differs: KAE ${actual(w)} vs Spark ${expected(w)}")
          assert(actual(w).records > 0, s"$w produced nothing")
        }
      }
    }
  }
}
