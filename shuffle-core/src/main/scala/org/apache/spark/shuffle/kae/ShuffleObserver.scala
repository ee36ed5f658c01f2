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

import java.util.concurrent.atomic.AtomicBoolean

import org.apache.spark.{SparkConf, SparkContext}
import org.apache.spark.shuffle.kae.doctor.KaeStageSummaryListener
import org.apache.spark.shuffle.kae.metrics.{
  ApplicationCountsListener,
  KaeShuffleMetrics,
  KaeShuffleSource,
  ShuffleCounts
}
import org.apache.spark.shuffle.kae.ui.KaeShuffleUi

/**
 * Everything that shows what the manager does: Spark's UI tab and its events, the metrics system,
 * the per-shuffle accumulators, and the stage summaries and diagnoses in the driver log. The
 * manager tells it what happened; it decides, once per JVM, what to start.
 */
private[kae] final class ShuffleObserver(settings: KaeShuffleSettings, conf: SparkConf) {

  private val uiStarted = new AtomicBoolean(false)
  private val listenersAdded = new AtomicBoolean(false)

  /**
   * What this JVM's tasks did, in Spark's metrics system ([[KaeShuffleSource]]); registered with
   * the first task that reports, when the application and executor ids are known.
   */
  private lazy val taskCounts = {
    val source = new KaeShuffleSource(KaeShuffleSource.Tasks)
    KaeShuffleSource.register(source)
    source
  }

  /** A shuffle registered on the driver goes to Spark's sort shuffle, for `reason`. */
  def fellBack(sc: Option[SparkContext], shuffleId: Int, reason: String): Unit = {
    sc.foreach(showInUi)
    if (settings.ui) sc.foreach(_.listenerBus.post(KaeShuffleFellBack(shuffleId, reason)))
  }

  /** A KAE shuffle registered on the driver; its accumulator, or null without a context. */
  def kaeShuffle(sc: Option[SparkContext]): KaeShuffleMetrics = {
    sc.foreach { c =>
      showInUi(c)
      addDriverListeners(c)
    }
    sc.map(KaeShuffleMetrics.register).getOrElse(null)
  }

  /** A task's counts, to its shuffle's accumulator (null: none) and this JVM's metrics source. */
  def taskDone(shuffle: KaeShuffleMetrics, counts: ShuffleCounts): Unit = {
    if (shuffle != null) shuffle.add(counts)
    taskCounts.add(counts)
  }

  /** With the application's first shuffle: the UI tab, and what this manager chose. */
  private def showInUi(sc: SparkContext): Unit = {
    if (settings.ui && uiStarted.compareAndSet(false, true))
      KaeShuffleUi.start(sc, KaeShuffleStarted.of(settings, conf))
  }

  /**
   * With the first KAE shuffle: the application's totals in the metrics system, and the stage
   * summaries and diagnoses in the driver log when asked for.
   */
  private def addDriverListeners(sc: SparkContext): Unit = {
    if (listenersAdded.compareAndSet(false, true)) {
      val application = new KaeShuffleSource(KaeShuffleSource.Application)
      KaeShuffleSource.register(application)
      sc.addSparkListener(new ApplicationCountsListener(application))
      if (settings.stageSummary || settings.doctor) {
        sc.addSparkListener(new KaeStageSummaryListener(
          settings.stageSummary,
          settings.doctor,
          engine = settings.engine,
          modelled = settings.codecOptions.kaezipSkipHardwareCheck()))
      }
    }
  }
}
