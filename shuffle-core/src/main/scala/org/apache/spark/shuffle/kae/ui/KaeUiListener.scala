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
package ui

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerEvent,
  SparkListenerJobStart,
  SparkListenerStageCompleted,
  SparkListenerTaskEnd
}
import org.apache.spark.shuffle.kae.metrics.StageAccumulation
import org.apache.spark.status.ElementTrackingStore

/**
 * Writes what the KAE Shuffle tab shows into Spark's application store: live (the status queue
 * of the running application) and in the History Server (replaying the event log), from the
 * same events, so the page shows the same figures in both. Stages appear when they complete.
 */
private[spark] class KaeUiListener(store: ElementTrackingStore) extends SparkListener {
  private val stages = new StageAccumulation
  private val jobsOfStage = new ConcurrentHashMap[Int, Seq[Int]]()

  override def onOtherEvent(event: SparkListenerEvent): Unit = event match {
    case e: KaeShuffleStarted => store.write(new KaeApplicationRow(e))
    case e: KaeShuffleFellBack => store.write(new KaeFallbackRow(e.shuffleId, e.reason))
    case _ =>
  }

  override def onJobStart(event: SparkListenerJobStart): Unit = event.stageIds.foreach { s =>
    jobsOfStage.merge(s, Seq(event.jobId), (a, b) => (a ++ b).distinct)
  }

  override def onTaskEnd(event: SparkListenerTaskEnd): Unit = stages.taskEnded(event)

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = {
    val info = event.stageInfo
    stages.stageCompleted(info).foreach { t =>
      store.write(KaeStageRow(t, jobsOfStage.getOrDefault(info.stageId, Nil).sorted))
    }
  }
}
