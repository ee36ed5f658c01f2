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
package org.apache.spark.shuffle.kae
package metrics

import org.apache.spark.Success
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/**
 * Adds every successful task's KAE Shuffle accumulator update to the driver's application source
 * ([[KaeShuffleSource.Application]]): the same updates Spark merges into the shuffles'
 * accumulators, so the published totals are the accumulators' sums.
 */
private[spark] class ApplicationCountsListener(source: KaeShuffleSource) extends SparkListener {
  override def onTaskEnd(event: SparkListenerTaskEnd): Unit = {
    if (event.reason == Success && event.taskInfo != null) {
      val updates = ShuffleCounts.fromAccumulables(event.taskInfo.accumulables, _.update)
      if (!updates.isEmpty) source.add(updates)
    }
  }
}
