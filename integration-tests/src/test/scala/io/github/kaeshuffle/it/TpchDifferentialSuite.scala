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

import java.nio.file.Files

import io.github.kaeshuffle.workloads.Tpch
import org.scalatest.funsuite.AnyFunSuite

/**
 * TPC-H at scale factor 0.01, every query: KAE Shuffle's rows equal Spark's own shuffle's, row for
 * row in the query's order, and their number is the one the generator's project publishes. AQE is
 * on with tiny advisory sizes (Sessions.conf), so coalesced and skew-split reads take part.
 */
class TpchDifferentialSuite extends AnyFunSuite {
  private val scaleFactor = 0.01

  private lazy val data = {
    val root = Files.createTempDirectory("kae-tpch")
    Sessions.withSession(Sessions.conf(None, Sessions.Kryo, "local[2]")) { spark =>
      Tpch.generate(spark, scaleFactor, root)
    }
  }

  private def results(codec: Option[String]): Map[Int, Seq[String]] = {
    val dir = data // generated in a session of its own, before this one opens
    Sessions.withSession(Sessions.conf(codec, Sessions.Kryo, "local[2]")) { spark =>
      Tpch.register(spark, dir)
      Tpch.queries.map(q => q.number -> Tpch.run(spark, q.name)).toMap
    }
  }

  test("TPC-H SF 0.01: all 22 queries give Spark's rows and the published row counts") {
    val expected = results(None)
    val actual = results(Some("auto"))
    for (q <- Tpch.queries) {
      assert(expected(q.number).size == Tpch.rowsAtHundredth(q), s"${q.name} with Spark's shuffle")
      assert(actual(q.number) == expected(q.number), s"${q.name} with KAE Shuffle")
    }
  }
}
