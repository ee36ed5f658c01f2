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

import io.github.kaeshuffle.testing.MatrixTests
import io.github.kaeshuffle.workloads.Tpcds

/**
 * TPC-DS at scale factor 0.01: KAE Shuffle's rows equal Spark's own shuffle's, row for row in the
 * query's order. AQE is on with tiny advisory sizes (Sessions.conf), so coalesced and skew-split
 * reads take part. The gate runs queries chosen for what TPC-H lacks (window functions, rollups,
 * intersect and except, many small shuffles per query); the matrix runs all 103 texts.
 */
class TpcdsDifferentialSuite extends MatrixTests {
  private val scaleFactor = 0.01

  /** Windows (q47, q51), rollups (q5, q77), intersect (q14a), except (q87), many joins (q64, q72). */
  private val GateQueries = Set("q5", "q14a", "q47", "q51", "q64", "q72", "q77", "q87")

  private lazy val data = {
    val root = Files.createTempDirectory("kae-tpcds")
    Sessions.withSession(Sessions.conf(None, Sessions.Kryo, "local[2]")) { spark =>
      Tpcds.generate(spark, scaleFactor, root)
    }
  }

  private def results(
      codec: Option[String],
      queries: Seq[Tpcds.Query]): Map[String, Seq[String]] = {
    val dir = data // generated in a session of its own, before this one opens
    val conf = Sessions.conf(codec, Sessions.Kryo, "local[2]").setAll(Tpcds.sessionSettings)
    Sessions.withSession(conf) { spark =>
      Tpcds.register(spark, dir)
      queries.map(q => q.name -> Tpcds.run(spark, q.name)).toMap
    }
  }

  private def differential(queries: Seq[Tpcds.Query]): Unit = {
    val expected = results(None, queries)
    val actual = results(Some("auto"), queries)
    for (q <- queries) {
      assert(actual(q.name) == expected(q.name), s"${q.name} with KAE Shuffle")
    }
    assert(expected.values.exists(_.nonEmpty), "every query returned nothing: no data?")
  }

  gateTestIf(true)(s"TPC-DS SF 0.01: ${GateQueries.size} queries give Spark's rows") {
    differential(Tpcds.queries.filter(q => GateQueries(q.name)))
  }

  matrixTest("TPC-DS SF 0.01: all 103 query texts give Spark's rows") {
    differential(Tpcds.queries)
  }
}
