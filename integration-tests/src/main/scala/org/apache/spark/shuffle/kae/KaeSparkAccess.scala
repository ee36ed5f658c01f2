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

import org.apache.spark.{MapOutputTrackerMaster, ShuffleDependency, SparkContext, SparkEnv}
import org.apache.spark.scheduler.{StageInfo, TaskInfo}
import org.apache.spark.shuffle.kae.doctor.KaeStageSummaryListener
import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, ShuffleCounts, StageTotals}
import org.apache.spark.shuffle.kae.ui.KaeStageRow
import org.apache.spark.status.StageDataWrapper
import org.apache.spark.util.AccumulatorContext

/** Lets the tests and benchmarks, outside Spark's packages, use what Spark keeps private. */
object KaeSparkAccess {
  def usesKaeShuffle(sc: SparkContext): Boolean =
    sc.env.shuffleManager.isInstanceOf[KaeShuffleManager]

  def shuffleManagerClass(sc: SparkContext): String = sc.env.shuffleManager.getClass.getName

  /** Each map output of a shuffle, on the driver: the executor that holds it and its map id. */
  def mapOutputs(sc: SparkContext, shuffleId: Int): Seq[(String, Long)] =
    sc.env.mapOutputTracker.asInstanceOf[MapOutputTrackerMaster].shuffleStatuses(shuffleId)
      .mapStatuses.toSeq.map(s => (s.location.executorId, s.mapId))

  /** Shuffles the driver's map output tracker holds now. */
  def shufflesTracked(sc: SparkContext): Int =
    sc.env.mapOutputTracker.asInstanceOf[MapOutputTrackerMaster].shuffleStatuses.size

  /** Accumulators this JVM has registered and not yet seen collected. */
  def accumulatorsRegistered: Long = AccumulatorContext.numAccums.toLong

  /** The KAE Shuffle tab's stage rows, and Spark's own stage rows, in the application's store. */
  def uiStageRows(sc: SparkContext): (Long, Long) = {
    val store = sc.statusStore.store
    (store.count(classOf[KaeStageRow]), store.count(classOf[StageDataWrapper]))
  }

  /** Native encoders and decoders this JVM's KAE shuffle manager has made (0 under Spark's). */
  def nativeCodecsCreated: (Long, Long) = Option(SparkEnv.get).map(_.shuffleManager) match {
    case Some(m: KaeShuffleManager) => (m.encodersCreated, m.decodersCreated)
    case _ => (0L, 0L)
  }

  /** Where tasks should run to land on each executor, as Spark's locality names them. */
  def executorLocations(sc: SparkContext): Seq[String] =
    sc.env.blockManager.master.getMemoryStatus.keys.toSeq.filter(_.executorId != "driver")
      .map(b => s"executor_${b.host}_${b.executorId}")

  /** Ids of the executors the driver knows now. */
  def executorIds(sc: SparkContext): Seq[String] = sc.getExecutorIds()

  /** Runs only the map stage of a shuffle and waits for it. */
  def runMapStage(sc: SparkContext, dep: ShuffleDependency[_, _, _]): Unit =
    sc.submitMapStage(dep).get()

  /**
   * Forgets the local root dirs Spark cached for this JVM, so the next SparkContext (and the
   * local-cluster workers in this JVM) takes `spark.local.dir` from its own configuration.
   */
  def clearLocalRootDirs(): Unit = org.apache.spark.util.Utils.clearLocalRootDirs()

  /** JVM options split as Spark splits `spark.executor.extraJavaOptions` (quotes kept together). */
  def splitJavaOptions(options: String): Seq[String] =
    org.apache.spark.util.Utils.splitCommandString(options).toSeq

  /**
   * Unregisters a shuffle on the driver and every executor, as Spark's context cleaner does when
   * the shuffle's dependency is garbage collected, and waits for the executors.
   */
  def removeShuffle(sc: SparkContext, shuffleId: Int): Unit =
    sc.env.blockManager.master.removeShuffle(shuffleId, blocking = true)

  /** Hands `sink` the shuffle doctor's diagnosis line of every stage completed from now on. */
  def onDiagnoses(sc: SparkContext)(sink: String => Unit): Unit =
    sc.addSparkListener(new KaeStageSummaryListener(summaries = false, out = sink))

  /** KAE Shuffle's counts in a task's accumulator updates, by full name (`kae.shuffle.*`). */
  def kaeCounts(task: TaskInfo): Map[String, Long] =
    ShuffleCounts.fromAccumulables(task.accumulables, _.update).counts

  /**
   * The KAE Shuffle accumulators among a completed stage's accumulables: each one's id and its
   * value, the total Spark merged from every successful task so far, by full name.
   */
  def kaeAccumulators(stage: StageInfo): Map[Long, Map[String, Long]] =
    stage.accumulables.values.filter(_.name.contains(KaeShuffleMetrics.AccumulatorName))
      .map(a => a.id -> ShuffleCounts.fromAccumulables(Seq(a), _.value).counts).toMap

  /** Counts by name added up, as a stage's totals add its tasks'. */
  def sumCounts(a: Map[String, Long], b: Map[String, Long]): Map[String, Long] =
    StageTotals.sum(a, b)

  /** The names of KAE Shuffle's counts, as the accumulator and the metrics sources have them. */
  def countNames: Seq[String] = KaeShuffleMetrics.Names

  /** Bytes as the stage summary line and the UI tab write them ("1.5 MiB"). */
  def mib(bytes: Long): String = KaeStageSummaryListener.mib(bytes)

  /** Waits until every listener has seen every event posted so far. */
  def drainListeners(sc: SparkContext): Unit = sc.listenerBus.waitUntilEmpty()

  /** Whether this Spark loads spark.jars before the executors' shuffle manager (4.0 on). */
  def executorsLoadJarsFirst: Boolean = ManagerShims.current.executorsLoadJarsFirst

  /** Codec calls, in this JVM, of every [[KaeIoCodec]] output stream closed so far. */
  def ioCodecCalls: Long = KaeIoCodec.counts().codecCalls

  /** Makes Spark's IO codec `className` (a class name, not a short name) as Spark does. */
  def ioCodec(
      conf: org.apache.spark.SparkConf,
      className: String): org.apache.spark.io.CompressionCodec =
    org.apache.spark.io.CompressionCodec.createCodec(conf, className)
}
