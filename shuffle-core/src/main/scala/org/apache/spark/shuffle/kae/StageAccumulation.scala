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

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.Success
import org.apache.spark.scheduler.{SparkListenerTaskEnd, StageInfo}

/**
 * Sums, per stage attempt, the KAE Shuffle accumulator updates and metrics of its successful
 * tasks, for the stage summary line, the shuffle doctor and the UI tab alike. A stage's own
 * accumulable values would not do: they are the accumulators' global totals, which count a
 * shuffle read by two stages twice.
 */
private[spark] final class StageAccumulation {
  private val perStage = new ConcurrentHashMap[(Int, Int), StageTotals]()

  def taskEnded(event: SparkListenerTaskEnd): Unit = {
    if (event.reason == Success && event.taskInfo != null) {
      val updates = KaeStageSummaryListener.kaeValues(event.taskInfo.accumulables, _.update)
      if (updates.nonEmpty) {
        val m = event.taskMetrics
        val task = if (m == null)
          StageTotals(event.stageId, event.stageAttemptId, "", 1, 0L, 0L, 0L, updates)
        else StageTotals(
          event.stageId,
          event.stageAttemptId,
          "",
          1,
          m.executorRunTime * 1000000L,
          m.shuffleReadMetrics.totalBytesRead,
          m.shuffleWriteMetrics.bytesWritten,
          updates)
        perStage.merge((event.stageId, event.stageAttemptId), task, (a, b) => a + b)
      }
    }
  }

  /** The completed stage's totals, named, if any of its tasks used a KAE shuffle; forgets them. */
  def stageCompleted(info: StageInfo): Option[StageTotals] =
    Option(perStage.remove((info.stageId, info.attemptNumber()))).map(_.copy(name = info.name))
}
