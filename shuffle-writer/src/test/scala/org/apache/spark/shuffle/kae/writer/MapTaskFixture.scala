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

import java.io.{ByteArrayOutputStream, IOException, OutputStream}
import java.nio.ByteBuffer
import java.util.{Collections, Properties}
import java.util.concurrent.atomic.AtomicLong

import scala.collection.mutable

import io.github.kaeshuffle.codec.{BlockCodec, CodecKind, CodecOptions, Codecs}
import io.github.kaeshuffle.format.{BlockDecoder, BlockStats, SegmentInputStream, Segments}
import io.github.kaeshuffle.pool.EncoderPool
import io.github.kaeshuffle.writer.{LadderEncoders, WriterSettings}
import org.junit.jupiter.api.Assertions.assertThrows

import org.apache.spark.{SparkConf, SparkContext, SparkEnv, TaskContextImpl}
import org.apache.spark.executor.{ShuffleWriteMetrics, TaskMetrics}
import org.apache.spark.memory.TaskMemoryManager
import org.apache.spark.serializer.Serializer
import org.apache.spark.shuffle.api.{
  ShuffleExecutorComponents,
  ShuffleMapOutputWriter,
  ShufflePartitionWriter
}
import org.apache.spark.shuffle.api.metadata.MapOutputCommitMessage

/**
 * One map task around a writer tested alone: a task context with a memory manager of its own, the
 * write metrics, a map output kept in memory ([[MemoryOutput]]) and what the writer reports when it
 * stops. Spark must be running in this JVM ([[MapTaskFixture.startSpark]]): the writers take the
 * configuration and the block manager (spill files, the map status's location) from SparkEnv.
 */
private[writer] final class MapTaskFixture(
    settings: WriterSettings,
    doctor: Boolean = false,
    failOpening: Int = -1) {
  private val attempt = MapTaskFixture.attempts.getAndIncrement()
  val memory = new TaskMemoryManager(SparkEnv.get.memoryManager, attempt)
  val context = new TaskContextImpl(
    0,
    0,
    0,
    attempt,
    0,
    1,
    memory,
    new Properties,
    null,
    TaskMetrics.empty,
    1,
    Map.empty)
  val metrics = new ShuffleWriteMetrics
  val output = new MemoryOutput(failOpening)
  val reports = mutable.ArrayBuffer[(BlockStats, WriteReport)]()
  private val encoders = new LadderEncoders(
    Collections.singletonList(settings.codec),
    (c: BlockCodec) => new EncoderPool(c, false, 0, 2))
  val task = MapTask(
    MapTaskFixture.MapId,
    context,
    metrics,
    output,
    settings,
    encoders,
    None,
    doctor,
    (stats, report) => reports += ((stats, report)))

  /** Asserts that every block of `partition`'s segment but its last holds `blockSize` raw bytes. */
  def assertWholeBlocks(partition: Int, blockSize: Int): Unit = {
    val index = Segments.split(ByteBuffer.wrap(output.bytes(partition))).get(0).index()
    for (b <- 0 until index.blockCount - 1) {
      assert(index.rawLength(b) == blockSize, s"partition $partition, block $b")
    }
  }

  /** The records the map output holds for `partition`, decoded and deserialized. */
  def records[K, V](partition: Int, serializer: Serializer): Seq[(K, V)] = {
    val bytes = output.bytes(partition)
    if (bytes.isEmpty) Seq.empty
    else {
      val decoder = new BlockDecoder(null)
      try {
        val in = new SegmentInputStream(ByteBuffer.wrap(bytes), decoder)
        serializer.newInstance().deserializeStream(in).asKeyValueIterator
          .map(kv => (kv._1.asInstanceOf[K], kv._2.asInstanceOf[V])).toList
      } finally decoder.close()
    }
  }

  /**
   * Runs `write`, which must fail as a map output that cannot be written does: with an I/O error
   * naming shuffle `shuffleId` and this map task, its output aborted with that cause and never
   * committed.
   */
  def assertFailsNamingTheMapOutput(shuffleId: Int)(write: => Unit): Unit = {
    val failed = assertThrows(classOf[IOException], () => write, "the task fails")
    val message = failed.getMessage
    assert(
      message.startsWith(
        s"KAE Shuffle could not write the map output of shuffle $shuffleId (map ${MapTaskFixture.MapId},"),
      message)
    assert(output.aborted.contains(failed.getCause), "the output is aborted")
    assert(output.committed.isEmpty, "and never committed")
  }

  def close(): Unit = encoders.close()
}

private[writer] object MapTaskFixture {
  val MapId = 7L

  private val attempts = new AtomicLong(1)

  /** Spark in local mode, without its UI. */
  def startSpark(): SparkContext =
    new SparkContext(
      new SparkConf()
        .setMaster("local[1]")
        .setAppName("writer-alone")
        .set("spark.ui.enabled", "false"))

  lazy val Lz4: BlockCodec = Codecs.exact(CodecOptions.builder().codec(CodecKind.LZ4).build())

  /** lz4 blocks of `blockSize` and the simplest memory (no bound of the writer's own). */
  def lz4(blockSize: Int): WriterSettings = new WriterSettings(Lz4, blockSize)

  /** lz4 blocks of `blockSize`, at most `maxMemory` (0: no bound), `partitionStreams` streams. */
  def lz4(blockSize: Int, maxMemory: Long, partitionStreams: Int): WriterSettings =
    new WriterSettings(Lz4, blockSize, maxMemory, 4096, 0, 0, false, partitionStreams, 0)
}

/**
 * Spark's map output API kept in memory: each partition's bytes, the lengths committed, the cause
 * of an abort. Opening partition `failOpening`'s stream fails as a full disk does.
 */
private[writer] final class MemoryOutput(failOpening: Int) extends ShuffleExecutorComponents {
  private val written = mutable.Map[Int, ByteArrayOutputStream]()
  var committed: Option[Array[Long]] = None
  var aborted: Option[Throwable] = None

  def bytes(partition: Int): Array[Byte] =
    written.get(partition).map(_.toByteArray).getOrElse(Array.emptyByteArray)

  override def initializeExecutor(
      appId: String,
      execId: String,
      extraConfigs: java.util.Map[String, String]): Unit = ()

  override def createMapOutputWriter(
      shuffleId: Int,
      mapTaskId: Long,
      numPartitions: Int): ShuffleMapOutputWriter = new ShuffleMapOutputWriter {
    override def getPartitionWriter(partition: Int): ShufflePartitionWriter =
      new ShufflePartitionWriter {
        override def openStream(): OutputStream = {
          if (partition == failOpening) throw new IOException("No space left on device")
          written.getOrElseUpdate(partition, new ByteArrayOutputStream)
        }
        override def getNumBytesWritten: Long = bytes(partition).length.toLong
      }

    override def commitAllPartitions(checksums: Array[Long]): MapOutputCommitMessage = {
      val lengths = Array.tabulate(numPartitions)(p => bytes(p).length.toLong)
      committed = Some(lengths)
      MapOutputCommitMessage.of(lengths)
    }

    override def abort(error: Throwable): Unit = aborted = Some(error)
  }
}
