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

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.Success
import org.apache.spark.executor.TaskMetrics
import org.apache.spark.scheduler.{SparkListenerTaskEnd, StageInfo}

/**
 * Sums, per stage attempt, the KAE Shuffle accumulator updates and metrics of its successful
 * tasks, for the stage summary line, the shuffle doctor and the UI tab alike. A stage's own
 * accumulable values would not do: they are the accumulators' global totals, which count a
 * shuffle read by two stages twice.
 */
private[spark] final class StageAccumulation {
  import StageAccumulation.Running

  private val perStage = new ConcurrentHashMap[(Int, Int), Running]()

  def taskEnded(event: SparkListenerTaskEnd): Unit = {
    if (event.reason == Success && event.taskInfo != null) {
      val updates = ShuffleCounts.fromAccumulables(event.taskInfo.accumulables, _.update)
      if (!updates.isEmpty) {
        perStage.computeIfAbsent((event.stageId, event.stageAttemptId), _ => new Running)
          .add(updates, Option(event.taskMetrics))
      }
    }
  }

  /** The completed stage's totals, named, if any of its tasks used a KAE shuffle; forgets them. */
  def stageCompleted(info: StageInfo): Option[StageTotals] =
    Option(perStage.remove((info.stageId, info.attemptNumber()))).map(_.totals(info))
}

private object StageAccumulation {

  /**
   * One stage attempt's sums so far, added to in place: a listener sees every task of a job end
   * (20,000 per stage at 20,000 partitions), so a task adds into one array rather than making a
   * stage's totals anew.
   */
  final class Running {
    private val kae = new Array[Long](KaeShuffleMetrics.Names.size)
    private var tasks = 0
    private var runNanos = 0L
    private var readBytes = 0L
    private var writeBytes = 0L

    def add(updates: ShuffleCounts, metrics: Option[TaskMetrics]): Unit = synchronized {
      updates.addTo(kae)
      tasks += 1
      metrics.foreach { m =>
        runNanos += m.executorRunTime * 1000000L
        readBytes += m.shuffleReadMetrics.totalBytesRead
        writeBytes += m.shuffleWriteMetrics.bytesWritten
      }
    }

    def totals(info: StageInfo): StageTotals = synchronized {
      StageTotals(
        info.stageId,
        info.attemptNumber(),
        info.name,
        tasks,
        runNanos,
        readBytes,
        writeBytes,
        ShuffleCounts.ofDense(kae).counts)
    }
  }
}
