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

/**
 * local[16] on a 2-core machine: 16 tasks at once share each executor-wide codec, its native
 * contexts (one per task), the decompressor threads and the task memory; results equal Spark's.
 * The gate runs the default codec and the two whose native contexts are pooled or per task
 * (KAEzip's sessions, zlib's streams); the matrix every codec.
 */
class ConcurrencySuite extends MatrixTests {
  private val InGate = Set("auto", "kaezip", "zlib")
  private val Names = Seq("sort", "lda-edges", "sql-join", "groupby-skew")

  private lazy val expected = Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
    Names.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 16)).toMap
  }

  for (codec <- Sessions.Codecs) {
    gateTestIf(InGate(codec))(s"local[16] with codec $codec") {
      val exp = expected
      val actual = Sessions.withSession(Sessions.conf(Some(codec), Sessions.Kryo, "local[16]")) {
        spark => Names.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 16)).toMap
      }
      for (w <- Names) assert(actual(w).sameAs(exp(w)), s"$w: ${actual(w)} vs ${exp(w)}")
    }
  }
}
