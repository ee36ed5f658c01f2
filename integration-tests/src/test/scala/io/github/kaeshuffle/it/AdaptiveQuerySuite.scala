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

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.execution.adaptive.{
  AdaptiveSparkPlanExec,
  AdaptiveSparkPlanHelper,
  AQEShuffleReadExec
}

/**
 * AQE through KAE Shuffle: a skewed join is split into map-index ranges (partial map reads) and
 * small partitions are coalesced (batch fetches of contiguous segments); results equal Spark's.
 */
class AdaptiveQuerySuite extends AnyFunSuite with AdaptiveSparkPlanHelper {
  private def finalReads(codec: Option[String]) =
    Sessions.withSession(Sessions.conf(codec, Sessions.Kryo)) { spark =>
      WorkloadJobs.withBroadcastOff(spark) {
        val df = WorkloadJobs.skewJoinFrame(spark, Workloads.Size.TINY, 4, 42L)
        val rows = df.collect().map(_.mkString("|")).sorted.toSeq
        val plan = df.queryExecution.executedPlan.asInstanceOf[AdaptiveSparkPlanExec]
          .finalPhysicalPlan
        // The helper's collect also walks into query stages, where the skewed read sits.
        val reads = collect(plan) { case r: AQEShuffleReadExec => r }
        (rows, reads.exists(_.hasSkewedPartition), reads.exists(_.hasCoalescedPartition))
      }
    }

  /**
   * Shuffle blocks fetched by the reduce side of a `groupBy` over 4 map outputs and 8 partitions,
   * all non-empty, that AQE coalesces into one reduce partition; and its rows.
   */
  private def blocksFetched(batch: Boolean): (Long, Seq[String]) = {
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo)
      .set("spark.sql.adaptive.fetchShuffleBlocksInBatch", batch.toString)
      .set("spark.sql.adaptive.coalescePartitions.parallelismFirst", "false")
      .set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "1m")
    Sessions.withSession(conf) { spark =>
      val sc = spark.sparkContext
      val fetched = new AtomicLong
      Sessions.addToTotal(sc, fetched) { m =>
        m.shuffleReadMetrics.localBlocksFetched + m.shuffleReadMetrics.remoteBlocksFetched
      }
      val rows = spark.range(0, 40000, 1, 4).selectExpr("id % 1000 AS k").groupBy("k").count()
        .collect().map(_.mkString("|")).sorted.toSeq
      KaeSparkAccess.drainListeners(sc)
      (fetched.get, rows)
    }
  }

  test("a coalesced range is fetched as one batch block per map output") {
    val (batched, rows) = blocksFetched(batch = true)
    val (single, rowsUnbatched) = blocksFetched(batch = false)
    assert(rows == rowsUnbatched && rows.size == 1000)
    // One ShuffleBlockBatchId per map output (its 8 segments back to back, read as one range),
    // against one block per map output and partition.
    assert(batched == 4, s"$batched blocks fetched in batches")
    assert(single == 32, s"$single blocks fetched one by one")
  }

  test("skew splits and coalesced reads give Spark's results") {
    val (expected, _, _) = finalReads(None)
    val (actual, skewed, coalesced) = finalReads(Some("auto"))
    assert(skewed, "AQE did not split the skewed partition: the test does not test map ranges")
    assert(coalesced, "AQE did not coalesce partitions: the test does not test batch reads")
    assert(actual == expected)
  }
}
