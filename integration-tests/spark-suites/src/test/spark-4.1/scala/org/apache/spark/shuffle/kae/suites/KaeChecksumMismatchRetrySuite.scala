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
package org.apache.spark.shuffle.kae.suites

import java.nio.file.Path
import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.apache.spark._
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.ShuffleWriteProcessor
import org.apache.spark.shuffle.kae.ShuffleFiles
import org.apache.spark.shuffle.checksum.RowBasedChecksum
import org.apache.spark.util.Utils

/**
 * An indeterminate map stage found at run time, end to end (Spark 4.1's row-based checksums): a
 * map stage whose tasks look deterministic but write other rows when re-run. In local-cluster
 * (two executor JVMs) the test damages one segment of map 0's file; the reduce task reading it
 * fails with a fetch failure, Spark forgets the outputs of map 0's executor and re-runs those map
 * tasks. Their new rows give map 0 another checksum in its map status, and Spark, seeing the
 * mismatch, re-runs every task of the reduce stage, also those that had read the old rows on
 * the other executor. With our manager that needs the checksum of the rows each map task wrote
 * in every map status it reports, which is what this test checks the outcome of: the final
 * result holds the rows of one attempt of each map task, never a mixture. (With
 * `checksumMismatchFullRetryEnabled` off, the result mixes map 0's first and second attempt.)
 */
class KaeChecksumMismatchRetrySuite extends SparkFunSuite with LocalSparkContext
  with KaeShuffleInUse {

  import KaeChecksumMismatchRetrySuite._

  test("a re-run map task that writes other rows makes Spark re-run the whole reduce stage") {
    val localDir = Utils.createTempDir()
    try checkFullRetry(localDir.toPath)
    finally Utils.deleteRecursively(localDir)
  }

  private def checkFullRetry(localDir: Path): Unit = {
    Utils.clearLocalRootDirs() // the workers run in this JVM and would reuse earlier dirs
    val conf = new SparkConf()
      .setMaster("local-cluster[2,1,1024]")
      .setAppName("kae-checksum-mismatch")
      .set("spark.shuffle.manager", KaeShuffleInUse.Manager)
      .set("spark.local.dir", localDir.toString)
    sc = new SparkContext(conf)
    TestUtils.waitUntilExecutorsUp(sc, 2, 60000)

    val taskEnds = new ConcurrentLinkedQueue[SparkListenerTaskEnd]
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(e: SparkListenerTaskEnd): Unit = taskEnds.add(e)
    })

    // Positional: the full-retry flag's parameter is named differently in 4.1 and 4.2.
    val mapDep = new ShuffleDependency[Int, (Int, Int), (Int, Int)](
      taggedRows(sc),
      new HashPartitioner(Reducers),
      sc.env.serializer,
      None,
      None,
      false,
      new ShuffleWriteProcessor,
      Array.fill[RowBasedChecksum](Reducers)(new PairChecksum),
      true) // checksum mismatch: retry every succeeding stage
    sc.submitMapStage(mapDep).get()
    val tracker = sc.env.mapOutputTracker.asInstanceOf[MapOutputTrackerMaster]
    val firstStatus = tracker.shuffleStatuses(mapDep.shuffleId).mapStatuses(0)
    val output = ShuffleFiles.mapOutputs(localDir, mapDep.shuffleId)
      .find(_.mapId == firstStatus.mapId)
      .getOrElse(fail(s"map ${firstStatus.mapId}'s output is not under $localDir"))
    assert(output.partitionLength(DamagedReducer) > 64, "the damaged segment is too small")
    output.damageSegment(DamagedReducer, 16)

    // Reduce stage (a shuffle map stage: Spark can roll it back) and a one-task result stage.
    val counts = new ShuffleReadRDD(mapDep)
      .map { case (_, (map, attempt)) => ((map, attempt), 1L) }
      .reduceByKey(_ + _, 1)
      .collect()
      .toMap

    val lastStatus = tracker.shuffleStatuses(mapDep.shuffleId).mapStatuses(0)
    assert(firstStatus.checksumValue != 0L, "map 0's first status has no row checksum")
    assert(
      lastStatus.checksumValue != firstStatus.checksumValue,
      "map 0 was not re-run with other rows, so Spark had no mismatch to see")
    // Rows of one attempt of each map task, each map's keys counted once.
    assert(counts.keys.map(_._1).toSeq.sorted == (0 until Maps))
    assert(counts.values.forall(_ == Keys.toLong), counts)
    assert(counts.exists { case ((map, attempt), _) => map == 0 && attempt > 0 }, counts)

    val ends = taskEnds.asScala.toSeq
    val reduceStage = ends.filter(_.taskType == "ShuffleMapTask").map(_.stageId).max
    val failedFetches =
      ends.count(e => e.stageId == reduceStage && e.reason.isInstanceOf[FetchFailed])
    assert(failedFetches >= 1, "the damaged segment caused no fetch failure")
    val lastAttempt = ends.filter(_.stageId == reduceStage).map(_.stageAttemptId).max
    val rerun = ends.filter(e =>
      e.stageId == reduceStage && e.stageAttemptId == lastAttempt && e.reason == Success)
    assert(
      rerun.map(_.taskInfo.index).toSet == (0 until Reducers).toSet,
      s"the reduce stage's last attempt ran partitions ${rerun.map(_.taskInfo.index).sorted}")
  }
}

object KaeChecksumMismatchRetrySuite {
  val Maps = 4
  val Reducers = 8
  val Keys = 2000
  // The last reduce task: most others have finished, on both executors, when it fails.
  val DamagedReducer: Int = Reducers - 1

  /**
   * `Keys` rows per map task, each tagged with its map and its stage attempt: a task that runs
   * again in a later attempt writes other rows, which no scheduler can know in advance.
   */
  def taggedRows(sc: SparkContext): RDD[(Int, (Int, Int))] =
    sc.parallelize(0 until Maps, Maps).flatMap { map =>
      val attempt = TaskContext.get().stageAttemptNumber()
      (0 until Keys).map(key => (key, (map, attempt)))
    }

  /** The checksum of one row, as Spark SQL's of an UnsafeRow: any mix of its content. */
  final class PairChecksum extends RowBasedChecksum {
    override protected def calculateRowChecksum(key: Any, value: Any): Long =
      (key, value).hashCode().toLong * 0x9e3779b97f4a7c15L
  }

  /** Reads one reduce partition of `dep` per task, as Spark SQL's ShuffledRowRDD does. */
  final class ShuffleReadRDD(dep: ShuffleDependency[Int, (Int, Int), (Int, Int)])
    extends RDD[(Int, (Int, Int))](dep.rdd.context, Seq(dep)) {

    override protected def getPartitions: Array[Partition] =
      Array.tabulate[Partition](dep.partitioner.numPartitions)(i => new ReducePartition(i))

    override def compute(split: Partition, context: TaskContext): Iterator[(Int, (Int, Int))] = {
      val metrics = context.taskMetrics().createTempShuffleReadMetrics()
      SparkEnv.get.shuffleManager
        .getReader[Int, (Int, Int)](
          dep.shuffleHandle,
          split.index,
          split.index + 1,
          context,
          metrics)
        .read()
        .asInstanceOf[Iterator[(Int, (Int, Int))]]
    }
  }

  final class ReducePartition(val index: Int) extends Partition
}
