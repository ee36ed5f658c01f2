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
package writer

import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import org.apache.spark.{Aggregator, HashPartitioner, ShuffleDependency, SparkContext}
import org.apache.spark.serializer.JavaSerializer

/**
 * The sort writer alone, on one map task whose output is kept in memory: records combined on the
 * map side or written as they came, each partition one segment of whole blocks; the metrics, map
 * status and report it leaves; a failed output fails the task by name. Its choice by the manager
 * and its files on disk are KaeShuffleWriterSuite's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KaeSortShuffleWriterTest {
  private val Block = 16 * 1024
  private val Partitions = 5
  private var sc: SparkContext = _
  private lazy val javaSerializer = new JavaSerializer(sc.getConf)
  private val partitioner = new HashPartitioner(Partitions)

  @BeforeAll def startSpark(): Unit = sc = MapTaskFixture.startSpark()

  @AfterAll def stopSpark(): Unit = sc.stop()

  private def plain = new ShuffleDependency[Int, Int, Int](
    sc.emptyRDD[(Int, Int)],
    partitioner,
    javaSerializer)

  private def summing = new ShuffleDependency[Int, Int, Int](
    sc.emptyRDD[(Int, Int)],
    partitioner,
    javaSerializer,
    aggregator = Some(new Aggregator[Int, Int, Int](v => v, _ + _, _ + _)),
    mapSideCombine = true)

  /** Keys 0 to 999, each 20 times, valued 1 to 20 in turn. */
  private val input: Seq[(Int, Int)] = for (v <- 1 to 20; k <- 0 until 1000) yield (k, v)

  private def write(dep: ShuffleDependency[Int, Int, Int], doctor: Boolean = false) = {
    val task = new MapTaskFixture(MapTaskFixture.lz4(Block), doctor)
    val writer = new KaeSortShuffleWriter(dep, task.task)
    writer.write(input.iterator)
    val status = writer.stop(true)
    assert(status.isDefined && status.get.mapId == MapTaskFixture.MapId)
    assert(writer.getPartitionLengths().toSeq == task.output.committed.get.toSeq)
    task
  }

  @Test def withoutCombiningEachPartitionHoldsItsRecordsInOrderInFullBlocks(): Unit = {
    val task = write(plain, doctor = true)
    try {
      for (p <- 0 until Partitions) {
        val expected = input.filter(r => partitioner.getPartition(r._1) == p)
        assert(task.records[Int, Int](p, javaSerializer) == expected, s"partition $p")
        task.assertWholeBlocks(p, Block)
      }
      assert(task.metrics.recordsWritten == input.size)
      assert(task.metrics.bytesWritten == task.output.committed.get.sum)
      assert(task.reports.size == 1, "one report")
      val report = task.reports.head._2
      assert(report.serializeNanos > 0 && report.diskNanos > 0, s"the doctor's times: $report")
      assert(task.memory.getMemoryConsumptionForThisTask == 0, "its memory given back")
    } finally task.close()
  }

  @Test def combiningOnTheMapSideWritesEachKeyOnce(): Unit = {
    val task = write(summing)
    try {
      val written = (0 until Partitions).flatMap(p => task.records[Int, Int](p, javaSerializer))
      assert(written.size == 1000, "one record per key")
      assert(written.toMap == (0 until 1000).map(k => k -> 210).toMap, "1 + 2 + ... + 20")
      for (p <- 0 until Partitions; (k, _) <- task.records[Int, Int](p, javaSerializer)) {
        assert(partitioner.getPartition(k) == p)
      }
      assert(task.metrics.recordsWritten == 1000)
    } finally task.close()
  }

  @Test def aStoppedTaskThatFailedReportsNoOutputAndStopsOnce(): Unit = {
    val task = new MapTaskFixture(MapTaskFixture.lz4(Block))
    try {
      val writer = new KaeSortShuffleWriter(plain, task.task)
      writer.write(input.iterator)
      assert(writer.stop(false).isEmpty)
      assert(writer.stop(true).isEmpty, "a second stop reports nothing")
      assert(task.memory.getMemoryConsumptionForThisTask == 0)
    } finally task.close()
  }

  @Test def anOutputThatCannotBeWrittenFailsTheTaskNamingTheMapOutput(): Unit = {
    val task = new MapTaskFixture(MapTaskFixture.lz4(Block), failOpening = 2)
    try {
      val dep = plain
      val writer = new KaeSortShuffleWriter(dep, task.task)
      task.assertFailsNamingTheMapOutput(dep.shuffleId)(writer.write(input.iterator))
      assert(task.reports.size == 1, "what it did is reported all the same")
      assert(writer.stop(false).isEmpty)
      assert(task.memory.getMemoryConsumptionForThisTask == 0)
    } finally task.close()
  }
}
