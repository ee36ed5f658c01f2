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

import java.io.OutputStream
import java.util.zip.{CheckedOutputStream, Checksum}

import io.github.kaeshuffle.diagnostics.{RecordSample, TimedOutputStream}
import io.github.kaeshuffle.format.BlockEncoder
import io.github.kaeshuffle.writer.{
  BufferSizes,
  LadderEncoders,
  PartitionedBlockBuffer,
  PartitionStreams
}

import org.apache.spark.{ShuffleDependency, SparkEnv}
import org.apache.spark.scheduler.MapStatus
import org.apache.spark.serializer.{SerializationStream, SerializerInstance}
import org.apache.spark.shuffle.ShuffleWriter
import org.apache.spark.shuffle.api.{ShuffleMapOutputWriter, ShufflePartitionWriter}
import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.storage.TimeTrackingOutputStream

/**
 * The fast map-side writer, for serializers whose records can be moved as bytes (Kryo, Spark
 * SQL's rows) and shuffles without map-side combine.
 *
 * Each record is serialized once, straight into its partition's block buffer
 * ([[PartitionedBlockBuffer]]); a full block is compressed with one codec call. Spark SQL's rows
 * are copied in in their serializer's format by [[SqlRowWriter]]; for other serializers, up to
 * `settings.partitionStreams` partitions, each partition has its own serialization stream, as
 * Spark's bypass-merge writer has (the serializer's buffer reaches the block buffer when it
 * fills); with more, one stream serves all and is flushed into the record's partition after each
 * record. Nothing is sorted and no object is kept: memory holds the raw partial blocks, accounted
 * to Spark's task memory manager; compressed frames go to a file as they are made and are copied -
 * not recompressed - into the final output; a spill seals the partial blocks into that file.
 */
/** Where the record loop hands each record: a trait, so the partition is not boxed per record. */
private trait RecordPut {
  def put(partition: Int, key: Any, value: Any): Unit
}

private[spark] class KaeBlockShuffleWriter[K, V](
    dep: ShuffleDependency[K, V, _],
    task: MapTask)
  extends ShuffleWriter[K, V] {
  import task._

  private val numPartitions = dep.partitioner.numPartitions
  private var buffer: PartitionedBlockBuffer = _
  private var memory: WriterMemory = _
  private var lease: LadderEncoders.Lease = _
  private var encoder: BlockEncoder = _
  private var stopping = false
  private var mapStatus: MapStatus = _
  private var partitionLengths: Array[Long] = _

  /** The doctor's serialization link, less the codec and disk time nested in it. */
  private var serialize: RecordSample = _

  /**
   * Time in Spark's map output streams and commit: with the frame file's, the disk time the
   * doctor's disk link sees.
   */
  private var outputNanos = 0L

  /**
   * The commit's part of it, left out of the codec policy's disk time: a cost per task whatever
   * the codec, which would price a stored byte high where tasks store little.
   */
  private var commitNanos = 0L
  private var diskNanos = 0L
  private var parkedBytes = 0L
  private val shims = WriterShims.current
  private val rowChecksums = shims.rowChecksums(dep)

  /** Bytes written here are appended to the partition `target` names at the time. */
  private final class PartitionOutput(var target: Int) extends OutputStream {
    private val one = new Array[Byte](1)
    override def write(b: Int): Unit = {
      one(0) = b.toByte
      buffer.append(target, one, 0, 1)
    }
    override def write(b: Array[Byte], off: Int, len: Int): Unit =
      buffer.append(target, b, off, len)
  }

  override def write(records: Iterator[Product2[K, V]]): Unit = {
    lease = encoders.borrow(dep.shuffleId)
    encoder = lease.encoder()
    memory = new WriterMemory(context.taskMemoryManager(), settings.maxMemory)
    val blockManager = SparkEnv.get.blockManager
    buffer = new PartitionedBlockBuffer(
      numPartitions,
      settings.blockSize,
      BufferSizes.firstBuffer(numPartitions, settings.initialBufferSize),
      settings.largeBufferMemory,
      settings.frameMemory,
      encoder,
      memory,
      () => shims.newSpillFile(blockManager)
    )
    memory.buffer = buffer
    if (doctor) {
      val b = buffer
      serialize =
        new RecordSample(() => encoder.stats().codecNanos() + b.diskNanos + outputNanos)
    }
    writeMetrics.incRecordsWritten(serializeAll(records))
    commit()
    context.taskMetrics().incDiskBytesSpilled(buffer.counters.spilledBytes)
    context.taskMetrics().incMemoryBytesSpilled(buffer.counters.memorySpilled)
    context.taskMetrics().incPeakExecutionMemory(memory.peak)
    mapStatus = shims.mapStatus(
      blockManager,
      lease.lengthsAsFirstStep(partitionLengths),
      mapId,
      rowChecksums.aggregated)
  }

  /** Serializes every record into its partition's block buffer; returns the count. */
  private def serializeAll(records: Iterator[Product2[K, V]]): Long =
    sqlDataSize.map(new SqlRowWriter(_)) match {
      // Spark SQL's rows, written in their serializer's format without its streams.
      case Some(rows) =>
        writeEach(records)((partition, _, row) =>
          rows.write(row.asInstanceOf[UnsafeRow], partition, buffer))
      case None => serializeRecords(records)
    }

  /**
   * The one record loop: each record to its partition through `put`, with the row checksums and
   * the doctor's serialization sample around it; returns the count.
   */
  private def writeEach(records: Iterator[Product2[K, V]])(put: RecordPut): Long = {
    val partitioner = dep.partitioner
    val checksummed = rowChecksums.enabled
    var count = 0L
    while (records.hasNext) {
      val record = records.next()
      if (serialize != null) serialize.begin()
      val key = record._1
      val partition = partitioner.getPartition(key)
      put.put(partition, key, record._2)
      if (checksummed) rowChecksums.update(partition, key, record._2)
      if (serialize != null) serialize.end()
      count += 1
    }
    count
  }

  /**
   * Records through the serializer: a stream per partition (opened with the partition's first
   * record), or one shared stream that is pointed at each record's partition and flushed into it.
   */
  private def serializeRecords(records: Iterator[Product2[K, V]]): Long = {
    val serializer = dep.serializer.newInstance()
    val shared =
      if (numPartitions > settings.partitionStreams) new PartitionOutput(0) else null
    val streams = new Array[SerializationStream](if (shared == null) numPartitions else 1)
    try {
      if (shared != null) streams(0) = openStream(serializer, shared)
      val count = writeEach(records) { (partition, key, value) =>
        val out = if (shared != null) {
          shared.target = partition
          streams(0)
        } else {
          if (streams(partition) == null) {
            streams(partition) = openStream(serializer, new PartitionOutput(partition))
          }
          streams(partition)
        }
        out.writeKey[Any](key)
        out.writeValue[Any](value)
        if (shared != null) out.flush()
      }
      // Closing flushes each stream's last bytes into its partition's buffer.
      streams.foreach(s => if (s != null) s.close())
      count
    } finally memory.releaseStreams()
  }

  /** A serialization stream, its buffer counted as this task's execution memory. */
  private def openStream(serializer: SerializerInstance, out: OutputStream) = {
    memory.holdStream()
    serializer.serializeStream(out)
  }

  /** Writes every partition's segment through Spark's map output writer and commits them. */
  private def commit(): Unit = {
    val (lengths, committing) = MapOutputs.writeAndCommit(task, dep.shuffleId, numPartitions) {
      (writer, checksums) => buffer.writeTo(new OutputStreams(writer, checksums))
    }
    partitionLengths = lengths
    commitNanos = committing
    outputNanos += committing
  }

  /**
   * Partition streams of Spark's map output writer, timed and checksummed like Spark's; the time in
   * them (opening, writing, closing) is the output's disk time.
   */
  private class OutputStreams(writer: ShuffleMapOutputWriter, checksums: Array[Checksum])
    extends PartitionStreams {
    private var partitionWriter: ShufflePartitionWriter = _
    private var raw: TimedOutputStream = _

    override def open(partition: Int): OutputStream = {
      val t = System.nanoTime()
      partitionWriter = writer.getPartitionWriter(partition)
      raw = new TimedOutputStream(partitionWriter.openStream())
      outputNanos += System.nanoTime() - t
      val timed = new TimeTrackingOutputStream(writeMetrics, raw)
      if (checksums.nonEmpty) new CheckedOutputStream(timed, checksums(partition)) else timed
    }

    override def close(partition: Int, stream: OutputStream): Unit = {
      stream.flush()
      raw.close()
      outputNanos += raw.nanos()
      writeMetrics.incBytesWritten(partitionWriter.getNumBytesWritten)
    }
  }

  override def stop(success: Boolean): Option[MapStatus] = {
    try {
      if (stopping) None
      else {
        stopping = true
        if (success) Option(mapStatus) else None
      }
    } finally {
      val start = System.nanoTime()
      if (buffer != null) {
        diskNanos = buffer.diskNanos
        parkedBytes = buffer.counters.parkedBytes
        buffer.close()
        buffer = null
      }
      if (encoder != null) {
        val stronger = lease.strongerRawBytes()
        val report =
          if (serialize == null) WriteReport(0L, 0L, parkedBytes, stronger)
          else WriteReport(serialize.estimate(), diskNanos + outputNanos, parkedBytes, stronger)
        try onStats(encoder.stats(), report)
        finally {
          encoders.giveBack(lease, diskNanos + outputNanos - commitNanos)
          encoder = null
          lease = null
        }
      }
      writeMetrics.incWriteTime(System.nanoTime() - start)
    }
  }

  override def getPartitionLengths(): Array[Long] = partitionLengths
}
