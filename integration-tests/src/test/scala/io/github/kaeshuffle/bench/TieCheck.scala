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
package io.github.kaeshuffle.bench

import java.nio.file.Path

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.QuerySet

import org.apache.spark.SparkConf

/**
 * A second look at the queries whose rows differed between runs. A query that orders by a key
 * with ties may return tied rows in any order, and with a `LIMIT n` any of them at the cut (TPC-DS
 * q75: `ORDER BY sales_cnt_diff LIMIT 100`): which depends on the order rows arrive in, and
 * Spark's own shuffle with two codecs differs there too. Such a query is run again without its
 * final LIMIT under every configuration and its rows sorted: equal rows mean every configuration
 * computed the same result; rows that still differ are a difference.
 */
private[bench] object TieCheck {

  /** One query's second look: its sorted rows, equal under every configuration or not. */
  case class Verdict(query: String, rows: Int, equal: Boolean) {
    def describe: String =
      if (equal) s"$query: without its LIMIT and sorted, $rows rows equal in every configuration"
      else s"$query: DIFFERS without its LIMIT and sorted too"
  }

  def run(
      set: QuerySet,
      configs: Seq[Config],
      data: Path,
      queries: Seq[String],
      conf: Config => SparkConf): Seq[Verdict] = {
    if (queries.isEmpty) return Nil
    val results = configs.map { c =>
      Sessions.withSession(conf(c)) { spark =>
        set.register(spark, data)
        queries.map(q => set.runSortedWithoutLimit(spark, q))
      }
    }
    queries.indices.map { i =>
      val all = results.map(_(i))
      Verdict(queries(i), all.head.size, all.forall(_ == all.head))
    }
  }
}
