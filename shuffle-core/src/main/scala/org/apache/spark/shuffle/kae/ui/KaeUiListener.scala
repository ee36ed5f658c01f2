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

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkConf
import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerEvent,
  SparkListenerJobEnd,
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
 * An application that runs for days keeps only its last `spark.ui.retainedStages` stage rows,
 * as Spark keeps its own stage pages, and nothing per job once the job ended.
 */
private[spark] class KaeUiListener(store: ElementTrackingStore, retainedStages: Int)
  extends SparkListener {
  private val stages = new StageAccumulation
  private val jobsOfStage = new ConcurrentHashMap[Int, Seq[Int]]()
  private val stagesOfJob = new ConcurrentHashMap[Int, Seq[Int]]()

  store.addTrigger(classOf[KaeStageRow], retainedStages.toLong) { count =>
    // At least a tenth at once, as Spark does, so a full store is not trimmed at every stage.
    dropOldest(math.max(count / 10, count - retainedStages))
  }

  def this(store: ElementTrackingStore, conf: SparkConf) =
    this(store, conf.getInt("spark.ui.retainedStages", 1000))

  private def dropOldest(rows: Long): Unit = {
    val oldest = store.view(classOf[KaeStageRow]).max(rows).closeableIterator()
    val ids =
      try oldest.asScala.map(_.id).toList
      finally oldest.close()
    ids.foreach(id => store.delete(classOf[KaeStageRow], id))
  }

  override def onOtherEvent(event: SparkListenerEvent): Unit = event match {
    case e: KaeShuffleStarted => store.write(new KaeApplicationRow(e))
    case e: KaeShuffleFellBack => store.write(new KaeFallbackRow(e.shuffleId, e.reason))
    case _ =>
  }

  override def onJobStart(event: SparkListenerJobStart): Unit = {
    stagesOfJob.put(event.jobId, event.stageIds)
    event.stageIds.foreach { s =>
      jobsOfStage.merge(s, Seq(event.jobId), (a, b) => (a ++ b).distinct)
    }
  }

  override def onJobEnd(event: SparkListenerJobEnd): Unit =
    Option(stagesOfJob.remove(event.jobId)).foreach(_.foreach { s =>
      jobsOfStage.computeIfPresent(
        s,
        (_, jobs) =>
          jobs.filterNot(_ == event.jobId) match {
            case Seq() => null
            case left => left
          })
    })

  override def onTaskEnd(event: SparkListenerTaskEnd): Unit = stages.taskEnded(event)

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = {
    val info = event.stageInfo
    stages.stageCompleted(info).foreach { t =>
      val row = KaeStageRow(t, jobsOfStage.getOrDefault(info.stageId, Nil).sorted)
      store.write(row, checkTriggers = true)
    }
  }
}
