/*
 * Copyright 2026 The KAE Shuffle authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the License
 * is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express
 * or implied. See the License for the specific language governing permissions and limitations under
 * the License.
 */
package io.github.kaeshuffle.it

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import io.github.kaeshuffle.testing.MatrixTests

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Every workload at `tiny` size in local[4], with KAE Shuffle under every codec and both the
 * Kryo and Java serializers, gives exactly the result of Spark's built-in shuffle; so does the
 * block writer with one serialization stream for all partitions (the way it writes when a
 * shuffle has more than `spark.shuffle.kae.writer.partitionStreams` partitions). The gate runs
 * every codec with Kryo and `auto` with the Java serializer; the matrix every pair.
 */
class WorkloadDifferentialSuite extends MatrixTests {
  private val Slices = 4

  private def runAll(
      codec: Option[String],
      serializer: String,
      extra: Map[String, String] = Map.empty): Map[String, WorkloadJobs.Digest] =
    Sessions.withSession(Sessions.conf(codec, serializer).setAll(extra)) { spark =>
      if (codec.isDefined) {
        assert(KaeSparkAccess.usesKaeShuffle(spark.sparkContext))
      }
      WorkloadJobs.Names.map { w =>
        w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, Slices)
      }.toMap
    }

  private lazy val expectedKryo = runAll(None, Sessions.Kryo)

  for (serializer <- Seq(Sessions.Kryo, Sessions.Java)) {
    val serializerName = serializer.split('.').last
    lazy val expected = if (serializer == Sessions.Kryo) expectedKryo else runAll(None, serializer)
    for (codec <- Sessions.Codecs) {
      val inGate = serializer == Sessions.Kryo || codec == "auto"
      gateTestIf(inGate)(s"all workloads, codec $codec, $serializerName") {
        val actual = runAll(Some(codec), serializer)
        for (w <- WorkloadJobs.Names) {
          assert(
            actual(w).sameAs(expected(w)),
            s"$w differs: KAE ${actual(w)} vs Spark ${expected(w)}")
          assert(actual(w).records > 0, s"$w produced nothing")
        }
      }
    }
  }

  test("all workloads, one serialization stream for all partitions, Kryo") {
    val actual = runAll(
      Some("libdeflate"),
      Sessions.Kryo,
      Map("spark.shuffle.kae.writer.partitionStreams" -> "0"))
    for (w <- WorkloadJobs.Names) {
      assert(
        actual(w).sameAs(expectedKryo(w)),
        s"$w differs: KAE ${actual(w)} vs Spark ${expectedKryo(w)}")
    }
  }
}
