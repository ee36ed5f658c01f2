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
import org.scalatest.funsuite.AnyFunSuite

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

  test("skew splits and coalesced reads give Spark's results") {
    val (expected, _, _) = finalReads(None)
    val (actual, skewed, coalesced) = finalReads(Some("auto"))
    assert(skewed, "AQE did not split the skewed partition: the test does not test map ranges")
    assert(coalesced, "AQE did not coalesce partitions: the test does not test batch reads")
    assert(actual == expected)
  }
}
