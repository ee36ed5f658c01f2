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

import java.util.Random

import io.github.kaeshuffle.writer.WriterSettings
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}

import org.apache.spark.{HashPartitioner, ShuffleDependency, SparkContext, SparkEnv}
import org.apache.spark.serializer.KryoSerializer

/**
 * The block writer alone, on one map task whose output is kept in memory: every record reaches its
 * partition's segment, with a stream per partition or one shared, within a memory bound that makes
 * it spill; the metrics, map status and report it leaves; a failed output fails the task by name.
 * The manager's choice of this writer and its files on disk are KaeShuffleWriterSuite's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KaeBlockShuffleWriterTest {
  private val Block = 16 * 1024
  private var sc: SparkContext = _
  private lazy val kryo = new KryoSerializer(sc.getConf)

  @BeforeAll def startSpark(): Unit = sc = MapTaskFixture.startSpark()

  @AfterAll def stopSpark(): Unit = sc.stop()

  private def dependency(partitions: Int) =
    new ShuffleDependency[Int, String, String](
      sc.emptyRDD[(Int, String)],
      new HashPartitioner(partitions),
      kryo)

  /** `n` records of keys below 1,000 and values of 1 to 40 bytes, the same for every seed. */
  private def records(n: Int, seed: Int): Seq[(Int, String)] = {
    val r = new Random(seed)
    Seq.fill(n)((r.nextInt(1000), "v" * (1 + r.nextInt(40))))
  }

  /** Writes `input` as map task 7 of a shuffle into `partitions`; the writer is stopped. */
  private def write(
      settings: WriterSettings,
      partitions: Int,
      input: Seq[(Int, String)],
      doctor: Boolean = false): MapTaskFixture = {
    val task = new MapTaskFixture(settings, doctor)
    val dep = dependency(partitions)
    val writer = new KaeBlockShuffleWriter[Int, String](dep, task.task)
    writer.write(input.iterator)
    val status = writer.stop(true)
    assert(status.isDefined, "a map task that wrote its output reports it")
    assert(status.get.mapId == MapTaskFixture.MapId)
    assert(status.get.location == SparkEnv.get.blockManager.shuffleServerId)
    assert(writer.getPartitionLengths().toSeq == task.output.committed.get.toSeq)
    task
  }

  /** Every partition's segment holds exactly its records, in the order they came. */
  private def assertEveryRecordInItsPartition(
      task: MapTaskFixture,
      partitions: Int,
      input: Seq[(Int, String)]): Unit = {
    val partitioner = new HashPartitioner(partitions)
    for (p <- 0 until partitions) {
      val expected = input.filter(r => partitioner.getPartition(r._1) == p)
      assert(task.records[Int, String](p, kryo) == expected, s"partition $p")
    }
  }

  @Test def eachPartitionsSegmentHoldsItsRecordsInOrderInFullBlocks(): Unit = {
    val input = records(20000, 1)
    val task = write(MapTaskFixture.lz4(Block), 7, input)
    try {
      assertEveryRecordInItsPartition(task, 7, input)
      val lengths = task.output.committed.get
      for (p <- 0 until 7) task.assertWholeBlocks(p, Block)
      assert(task.metrics.recordsWritten == 20000)
      assert(task.metrics.bytesWritten == lengths.sum)
      assert(task.reports.size == 1, "one report when it stops")
      assert(task.reports.head._1.rawBytes() > task.reports.head._1.storedBytes())
      assert(task.memory.getMemoryConsumptionForThisTask == 0, "its memory given back")
    } finally task.close()
  }

  @Test def partitionsWithoutRecordsHaveNoBytes(): Unit = {
    val input = records(2000, 2).map(r => (r._1 * 4, r._2)) // keys in partitions 0 of 4 only
    val task = write(MapTaskFixture.lz4(Block), 4, input)
    try {
      assert(task.output.committed.get.toSeq.tail == Seq(0L, 0L, 0L))
      assertEveryRecordInItsPartition(task, 4, input)
    } finally task.close()
  }

  @Test def withMorePartitionsThanStreamsOneSharedStreamGivesTheSameRecords(): Unit = {
    val input = records(20000, 3)
    val task = write(MapTaskFixture.lz4(Block, 0, 2), 7, input)
    try assertEveryRecordInItsPartition(task, 7, input)
    finally task.close()
  }

  @Test def underItsMemoryBoundItSpillsAndLosesNoRecord(): Unit = {
    val input = records(50000, 4)
    val task = write(MapTaskFixture.lz4(Block, 64 * 1024, 200), 16, input)
    try {
      assert(task.context.taskMetrics.diskBytesSpilled > 0, "64 KiB for 16 partitions spills")
      assert(task.context.taskMetrics.memoryBytesSpilled > 0)
      val streams = 16 * WriterMemory.SerializerStreamBytes
      assert(task.context.taskMetrics.peakExecutionMemory <= 64 * 1024 + streams)
      assertEveryRecordInItsPartition(task, 16, input)
    } finally task.close()
  }

  @Test def withTheDoctorItReportsSerializationAndDiskTime(): Unit = {
    val task = write(MapTaskFixture.lz4(Block), 4, records(20000, 5), doctor = true)
    try {
      val report = task.reports.head._2
      assert(report.serializeNanos > 0, s"$report")
      assert(report.diskNanos > 0, s"$report")
    } finally task.close()
  }

  @Test def aStoppedTaskThatFailedReportsNoOutputAndStopsOnce(): Unit = {
    val task = new MapTaskFixture(MapTaskFixture.lz4(Block))
    try {
      val writer = new KaeBlockShuffleWriter[Int, String](dependency(4), task.task)
      writer.write(records(1000, 6).iterator)
      assert(writer.stop(false).isEmpty)
      assert(writer.stop(true).isEmpty, "a second stop reports nothing")
      assert(task.reports.size == 1, "and reports its statistics once")
      assert(task.memory.getMemoryConsumptionForThisTask == 0)
    } finally task.close()
  }

  @Test def anOutputThatCannotBeWrittenFailsTheTaskNamingTheMapOutput(): Unit = {
    val task = new MapTaskFixture(MapTaskFixture.lz4(Block), failOpening = 1)
    try {
      val dep = dependency(4)
      val writer = new KaeBlockShuffleWriter[Int, String](dep, task.task)
      task.assertFailsNamingTheMapOutput(dep.shuffleId)(writer.write(records(1000, 7).iterator))
      assert(writer.stop(false).isEmpty)
      assert(task.memory.getMemoryConsumptionForThisTask == 0)
    } finally task.close()
  }
}
