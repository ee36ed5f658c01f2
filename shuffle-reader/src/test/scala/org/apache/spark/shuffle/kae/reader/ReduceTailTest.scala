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
package reader

import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}
import org.junit.jupiter.api.Assertions.assertThrows

import org.apache.spark.{
  Aggregator,
  HashPartitioner,
  InterruptibleIterator,
  ShuffleDependency,
  SparkContext,
  TaskContext,
  TaskContextImpl,
  TaskKilledException
}
import org.apache.spark.serializer.JavaSerializer

/**
 * What a reduce task does with the records it read, as Spark's own reader does: sorts them by key
 * when the shuffle orders, merges combiners or values when it aggregates, passes them on otherwise;
 * whichever, a killed task stops at the next record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReduceTailTest {
  private var sc: SparkContext = _
  private lazy val javaSerializer = new JavaSerializer(sc.getConf)
  private val sum = new Aggregator[Int, Int, Int](v => v, _ + _, _ + _)

  @BeforeAll def startSpark(): Unit = sc = ReduceFixture.startSpark()

  @AfterAll def stopSpark(): Unit = sc.stop()

  private def dependency(
      ordering: Option[Ordering[Int]] = None,
      aggregator: Option[Aggregator[Int, Int, Int]] = None,
      mapSideCombine: Boolean = false) =
    new ShuffleDependency[Int, Int, Int](
      sc.emptyRDD[(Int, Int)],
      new HashPartitioner(1),
      javaSerializer,
      keyOrdering = ordering,
      aggregator = aggregator,
      mapSideCombine = mapSideCombine)

  /** Keys 0 to 99 in a scrambled order, each three times, valued 1, 2 and 3 in turn. */
  private val read: Seq[(Int, Int)] = for (v <- 1 to 3; k <- 0 until 100) yield ((k * 37) % 100, v)

  /** The tail over [[read]], on a task's thread (Spark's aggregator finds the task there). */
  private def inTask[T](body: (TaskContextImpl, Iterator[Product2[Int, Int]]) => T)(
      dep: ShuffleDependency[Int, Int, Int]): T = {
    val context = ReduceFixture.context(ReduceFixture.taskMemory(64))
    TaskContext.setTaskContext(context)
    try body(context, ReduceTail(dep, context, new InterruptibleIterator(context, read.iterator)))
    finally TaskContext.unset()
  }

  private def run(dep: ShuffleDependency[Int, Int, Int]): Seq[(Int, Int)] =
    inTask((_, records) => records.map(r => (r._1, r._2)).toList)(dep)

  @Test def withoutOrderingOrAggregationRecordsPassOnAsRead(): Unit =
    assert(run(dependency()) == read)

  @Test def anOrderedShuffleIsSortedByKey(): Unit = {
    val sorted = run(dependency(ordering = Some(Ordering.Int)))
    assert(sorted.map(_._1) == read.map(_._1).sorted)
    assert(sorted.groupBy(_._1).values.forall(_.map(_._2).sorted == Seq(1, 2, 3)))
  }

  @Test def valuesAreCombinedWhenTheMapSideDidNot(): Unit =
    assert(run(dependency(aggregator = Some(sum))).toMap == (0 until 100).map(_ -> 6).toMap)

  @Test def combinersAreMergedWhenTheMapSideCombined(): Unit = {
    val merged = run(dependency(aggregator = Some(sum), mapSideCombine = true))
    assert(merged.size == 100 && merged.toMap == (0 until 100).map(_ -> 6).toMap)
  }

  @Test def orderedAndCombinedGivesEachKeyOnceInOrder(): Unit = {
    val dep =
      dependency(ordering = Some(Ordering.Int), aggregator = Some(sum), mapSideCombine = true)
    assert(run(dep) == (0 until 100).map(_ -> 6))
  }

  @Test def aKilledTaskStopsAtTheNextRecord(): Unit = {
    for (dep <- Seq(dependency(), dependency(aggregator = Some(sum)))) {
      val killed = inTask { (context, records) =>
        records.next()
        context.markInterrupted("stage cancelled")
        assertThrows(classOf[TaskKilledException], () => records.hasNext)
      }(dep)
      assert(killed.reason == "stage cancelled", killed.reason)
    }
  }
}
