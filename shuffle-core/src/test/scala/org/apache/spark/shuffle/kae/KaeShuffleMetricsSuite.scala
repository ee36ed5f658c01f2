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

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.scheduler.{
  AccumulableInfo,
  SparkListener,
  SparkListenerStageCompleted,
  SparkListenerTaskEnd
}
import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, ShuffleCounts}

/**
 * A shuffle's counts travel as one accumulator: a task carries one per KAE shuffle it reads or
 * writes (not one per count), its text in the UI and event log reads back to the same counts.
 */
class KaeShuffleMetricsSuite extends AnyFunSuite {
  import KaeShuffleMetrics._

  test("a task carries one accumulator per KAE shuffle it uses, and the counts add up") {
    LocalSpark.withSpark(LocalSpark.conf("local[2]")) { sc =>
      val perTask = new ConcurrentLinkedQueue[(Int, Int, Map[String, Long])]()
      val taskTotals = new ConcurrentLinkedQueue[Option[Any]]()
      val stageTotals = new ConcurrentLinkedQueue[Option[Any]]()
      val taskInternal = new ConcurrentLinkedQueue[Boolean]()
      val stageInternal = new ConcurrentLinkedQueue[Boolean]()
      def ours(infos: Iterable[AccumulableInfo]) =
        infos.filter(_.name.exists(_.startsWith(AccumulatorName)))
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit = {
          val counts = ShuffleCounts.fromAccumulables(e.taskInfo.accumulables, _.update).counts
          perTask.add((e.stageId, ours(e.taskInfo.accumulables).size, counts))
          ours(e.taskInfo.accumulables).foreach(a => taskTotals.add(a.value))
          ours(e.taskInfo.accumulables).foreach(a => taskInternal.add(a.internal))
        }
        override def onStageCompleted(e: SparkListenerStageCompleted): Unit = {
          ours(e.stageInfo.accumulables.values).foreach(a => stageTotals.add(a.value))
          ours(e.stageInfo.accumulables.values).foreach(a => stageInternal.add(a.internal))
        }
      })
      // Two shuffles: the middle stage's tasks read the first and write the second.
      val sums = sc.parallelize(1 to 20000, 4).map(i => (i % 100, 1L))
        .reduceByKey(_ + _, 8).map { case (k, n) => (k % 10, n) }
        .groupByKey(3).mapValues(_.sum).collect().toMap
      assert(sums == (0 until 10).map(k => k -> 2000L).toMap)
      sc.listenerBus.waitUntilEmpty()

      val byStage = perTask.asScala.toSeq.groupBy(_._1).toSeq.sortBy(_._1).map(_._2)
      assert(byStage.map(_.size) == Seq(4, 8, 3))
      assert(byStage.map(_.map(_._2).distinct) == Seq(Seq(1), Seq(2), Seq(1)))
      def total(stage: Int, name: String) = byStage(stage).map(_._3.getOrElse(name, 0L)).sum
      assert(total(0, WriteRawBytes) > 0 && total(0, WriteCodecCalls) > 0)
      assert(total(1, ReadRawBytes) == total(0, WriteRawBytes))
      assert(total(2, ReadRawBytes) == total(1, WriteRawBytes))
      // A task's info carries its update, not the accumulator's running total (which the driver
      // would hold per task while the stage runs); a stage's carries the total.
      assert(taskTotals.size == 4 + 2 * 8 + 3 && taskTotals.asScala.forall(_.isEmpty))
      assert(stageTotals.size == 4 && stageTotals.asScala.forall(
        _.exists(_.isInstanceOf[ShuffleCounts])))
      // A task's is internal, so Spark's UI store keeps no text of it per task; a stage's is not,
      // so the stage page shows the total.
      assert(taskInternal.size == taskTotals.size && taskInternal.asScala.forall(identity))
      assert(stageInternal.size == 4 && !stageInternal.asScala.exists(identity))
      val store = sc.statusStore
      val stages = store.stageList(null).filter(_.numTasks > 0)
      def inUi(names: collection.Seq[String]) = names.count(_.startsWith(AccumulatorName))
      assert(stages.map(s => inUi(s.accumulatorUpdates.map(_.name))).sum == 4)
      val tasks = stages.flatMap(s => store.taskList(s.stageId, s.attemptId, Int.MaxValue))
      assert(tasks.size == 4 + 8 + 3 && tasks.forall(t =>
        inUi(t.accumulatorUpdates.map(_.name)) == 0))
    }
  }

  test("the accumulator's text reads back to its counts; zero counts are left out") {
    val m = new KaeShuffleMetrics
    m.add(ShuffleCounts(Map(WriteRawBytes -> 1048576L, WriteCodecCalls -> 4L, ReadWaitNanos -> 0L)))
    val text = m.value.toString
    assert(text == "write.rawBytes=1048576, write.codecCalls=4")
    assert(ShuffleCounts.parse(text).contains(ShuffleCounts(Map(
      WriteRawBytes -> 1048576L,
      WriteCodecCalls -> 4L))))
    assert(ShuffleCounts.parse("").contains(ShuffleCounts(Map.empty)))
    assert(ShuffleCounts.parse("not counts").isEmpty)
    // An event log of another version may name counts this one does not have.
    assert(ShuffleCounts.parse("write.codecCalls=4, write.future=9").contains(ShuffleCounts(Map(
      WriteCodecCalls -> 4L))))
    assert(ShuffleCounts(Map(ReadRawBytes -> 0L)) == ShuffleCounts.Empty)
    assert(intercept[IllegalArgumentException](ShuffleCounts(Map("kae.shuffle.x" -> 1L)))
      .getMessage.startsWith("kae.shuffle.x is not a KAE Shuffle count"))
  }

  test("merging adds every count; a copy is independent; reset is zero") {
    val a = new KaeShuffleMetrics
    a.add(ShuffleCounts(Map(ReadCodecCalls -> 3L)))
    val b = a.copy()
    b.add(ShuffleCounts(Map(ReadCodecCalls -> 2L, ReadRawBytes -> 7L)))
    a.merge(b)
    assert(a(ReadCodecCalls) == 8L && a(ReadRawBytes) == 7L && b(ReadCodecCalls) == 5L)
    b.reset()
    assert(b.isZero && !a.isZero)
  }
}
