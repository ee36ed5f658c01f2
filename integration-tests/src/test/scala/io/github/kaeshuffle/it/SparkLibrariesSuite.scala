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

import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.testing.MatrixTests
import io.github.kaeshuffle.workloads.LibraryJobs

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Spark's own libraries (MLlib's EM and online LDA, KMeans, ALS, GraphX's PageRank and connected
 * components) under KAE Shuffle give Spark's results on the same data: counts and component ids
 * exactly, floating results to a relative [[Tolerance]]: the order the shuffle merges in changes
 * a sum's last bit, which iterations carry on (5.3e-16 at most in this suite's runs). The gate runs them tiny with `auto`; the matrix with every
 * codec, and 20 times larger.
 */
class SparkLibrariesSuite extends MatrixTests {
  private val Tolerance = 1e-12
  private val Slices = 4
  private val Seed = 42L

  private case class Run(results: Map[String, LibraryJobs.Result], shuffled: Long)

  private def runAll(codec: Option[String], scale: Int): Run =
    Sessions.withSession(Sessions.conf(codec, Sessions.Kryo)) { spark =>
      assert(KaeSparkAccess.usesKaeShuffle(spark.sparkContext) == codec.isDefined)
      val written = new AtomicLong
      Sessions.addToTotal(spark.sparkContext, written)(_.shuffleWriteMetrics.bytesWritten)
      val results =
        LibraryJobs.Names.map(n => n -> LibraryJobs.run(n, spark, scale, Slices, Seed)).toMap
      Run(results, written.get)
    }

  private val expected = scala.collection.mutable.Map[Int, Run]()

  private def compare(codec: String, scale: Int): Unit = {
    val spark = expected.getOrElseUpdate(scale, runAll(None, scale))
    val kae = runAll(Some(codec), scale)
    assert(kae.shuffled > 0, "nothing went through the shuffle")
    for (n <- LibraryJobs.Names) {
      val (a, e) = (kae.results(n), spark.results(n))
      assert(a.matches(e, Tolerance), s"$n differs (by ${a.distance(e)}): KAE $a vs Spark $e")
      info(f"$n: largest relative difference ${a.distance(e)}%.2e")
    }
  }

  test("MLlib, ML and GraphX jobs, tiny, codec auto") {
    compare("auto", 1)
  }

  for (codec <- Sessions.Codecs.filter(_ != "auto")) {
    matrixTest(s"MLlib, ML and GraphX jobs, tiny, codec $codec") {
      compare(codec, 1)
    }
  }

  matrixTest("MLlib, ML and GraphX jobs, 20 times tiny, codec auto") {
    compare("auto", 20)
  }
}
