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
package io.github.kaeshuffle.workloads

import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.functions.{broadcast, col, count, length, sum}
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}

/**
 * Jobs whose bytes go through `spark.io.compression.codec` outside the shuffle (issue 68's
 * benchmark): a broadcast join whose build side is large, so that every executor fetches and
 * decompresses its broadcast pieces.
 */
object IoJobs {

  /** Fact rows per dimension row: the dimension is 1/40 of the facts. */
  private val FactsPerDim = 40

  private val DimSchema = StructType(Seq(
    StructField("dim", LongType),
    StructField("category", StringType),
    StructField("description", StringType)))

  /**
   * `facts` rows of three longs joined with a broadcast dimension of one text line of ten words
   * per row (the text's vocabulary, so it compresses as text does), summed per category.
   */
  def broadcastJoin(
      spark: SparkSession,
      facts: Long,
      slices: Int,
      seed: Long): WorkloadJobs.Digest = {
    val dims = math.max(1L, facts / FactsPerDim)
    val perSlice = math.max(1L, dims / slices)
    val df = spark.range(0, facts, 1, slices)
      .selectExpr(
        "id",
        s"pmod(hash(id, $seed), ${perSlice * slices}) AS dim",
        "pmod(hash(id, 7), 1000) AS amount")
    val rows = WorkloadJobs.slicesRdd(spark, slices).flatMap { i =>
      val r = TextCorpus.random(seed, i)
      val text = TextCorpus.get()
      Iterator.tabulate(perSlice.toInt) { d =>
        val id = i * perSlice + d
        Row(id, s"category-${id % 97}", text.line(r, 10))
      }
    }
    val dim = spark.createDataFrame(rows, DimSchema)
    val out = df.join(broadcast(dim), "dim").groupBy("category")
      .agg(
        sum("amount").as("total"),
        count("*").as("n"),
        sum(length(col("description"))).as("text"))
    WorkloadJobs.unordered(out.rdd.map(_.mkString("|")))
  }
}
