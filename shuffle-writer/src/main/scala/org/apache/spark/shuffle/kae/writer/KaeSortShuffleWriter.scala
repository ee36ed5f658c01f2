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
import io.github.kaeshuffle.format.{BlockEncoder, FrameBufferPool, SegmentWriter}

import org.apache.spark.{ShuffleDependency, SparkEnv}
import org.apache.spark.scheduler.MapStatus
import org.apache.spark.serializer.{SerializationStream, SerializerInstance}
import org.apache.spark.shuffle.ShuffleWriter
import org.apache.spark.shuffle.api.{ShuffleMapOutputWriter, ShufflePartitionWriter}
import org.apache.spark.storage.TimeTrackingOutputStream
import org.apache.spark.util.collection.ExternalSorter

/**
 * The general map-side writer: any serializer, map-side combine, key ordering.
 *
 * Records are buffered (and combined, and spilled under memory pressure) by Spark's own
 * [[ExternalSorter]], exactly as Spark's sort shuffle does. The difference is the output: each
 * non-empty partition is serialized once, through one serialization stream, straight into a
 * [[SegmentWriter]] whose block buffer hands the codec one whole block per call. No codec stream
 * is ever wrapped around the serializer. The partitions' segments go to Spark's map output writer,
 * which commits `.data`, `.index` and the checksum file atomically, so every Spark component that
 * serves shuffle files serves these unchanged.
 */
private[spark] class KaeSortShuffleWriter[K, V, C](
    dep: ShuffleDependency[K, V, C],
    task: MapTask)
  extends ShuffleWriter[K, V] {
  import task._

  private val shims = WriterShims.current
  private var sorter: ExternalSorter[K, V, _] = _
  private var stopping = false
  private var mapStatus: MapStatus = _
  private var partitionLengths: Array[Long] = _

  /** Time in the partition streams and the commit: the doctor's disk time. */
  private var diskNanos = 0L

  /**
   * The commit's part of it, left out of the codec policy's disk time: a cost per task whatever
   * the codec, which would price a stored byte high where tasks store little.
   */
  private var commitNanos = 0L

  /** The partition stream being written, timed. */
  private var timedDisk: TimedOutputStream = _

  override def write(records: Iterator[Product2[K, V]]): Unit = {
    val s = shims.mapSorter(context, dep)
    sorter = s
    s.insertAll(records)

    val lease = encoders.borrow(dep.shuffleId)
    val encoder = lease.encoder()
    // The doctor's serialization link, less the codec and disk time nested in it.
    val serialize =
      if (doctor) {
        new RecordSample(() =>
          encoder.stats().codecNanos() + diskNanos +
            (if (timedDisk == null) 0L else timedDisk.nanos()))
      } else null
    try {
      writeSorted(s, encoder, serialize)
    } finally {
      try {
        val stronger = lease.strongerRawBytes()
        onStats(
          encoder.stats(),
          if (serialize == null) WriteReport(0L, 0L, 0L, stronger)
          else WriteReport(serialize.estimate(), diskNanos, 0L, stronger))
      } finally {
        encoders.giveBack(lease, diskNanos - commitNanos)
      }
    }
    context.taskMetrics().incMemoryBytesSpilled(s.memoryBytesSpilled)
    context.taskMetrics().incDiskBytesSpilled(s.diskBytesSpilled)
    context.taskMetrics().incPeakExecutionMemory(s.peakMemoryUsedBytes)
    mapStatus = shims.mapStatus(
      SparkEnv.get.blockManager,
      lease.lengthsAsFirstStep(partitionLengths),
      mapId,
      shims.sorterChecksum(s))
  }

  /** The sorter's partitions, each a segment, through Spark's map output writer and commit. */
  private def writeSorted(
      s: ExternalSorter[K, V, _],
      encoder: BlockEncoder,
      serialize: RecordSample): Unit = {
    val (lengths, committing) =
      MapOutputs.writeAndCommit(task, dep.shuffleId, dep.partitioner.numPartitions) {
        (mapOutputWriter, checksums) =>
          val serializer = dep.serializer.newInstance()
          // One block's buffers for all of the task's segments, made for the first of them.
          val framePool = new FrameBufferPool(settings.blockSize, 1)
          for ((partition, elements) <- s.partitionedIterator if elements.hasNext) {
            val checksum = if (checksums.nonEmpty) checksums(partition) else null
            writePartition(
              mapOutputWriter,
              partition,
              elements,
              serializer,
              checksum,
              encoder,
              framePool,
              serialize)
          }
      }
    partitionLengths = lengths
    commitNanos = committing
    diskNanos += committing
  }

  /** One partition: a serialization stream into a segment, into Spark's partition stream. */
  private def writePartition(
      mapOutputWriter: ShuffleMapOutputWriter,
      partition: Int,
      elements: Iterator[Product2[K, Any]],
      serializer: SerializerInstance,
      checksum: Checksum,
      encoder: BlockEncoder,
      framePool: FrameBufferPool,
      serialize: RecordSample): Unit = {
    val t0 = System.nanoTime()
    val partitionWriter: ShufflePartitionWriter = mapOutputWriter.getPartitionWriter(partition)
    val opened = partitionWriter.openStream()
    diskNanos += System.nanoTime() - t0
    timedDisk = new TimedOutputStream(opened)
    val partitionStream = timedDisk
    var records = 0L
    try {
      val timed: OutputStream = new TimeTrackingOutputStream(writeMetrics, partitionStream)
      // Spark's checksum covers the bytes on disk, as its diagnosis of corrupt fetches expects.
      val sink = if (checksum != null) new CheckedOutputStream(timed, checksum) else timed
      val segment = new SegmentWriter(encoder, framePool, sink)
      val out = serializer.serializeStream(segment)
      records = writeRecords(elements, out, serialize)
      // Flush the serializer into the segment, then finish the segment (last block, index)
      // ourselves: a serializer may swallow exceptions when it closes (Kryo's Output.close
      // ignores the IOException of the stream it closes), and a failed disk write must fail the
      // task, never commit a truncated segment. Closing the serializer afterwards is a no-op for
      // the finished segment.
      out.flush()
      segment.finish()
      out.close()
      sink.flush()
    } finally {
      partitionStream.close()
      diskNanos += timedDisk.nanos()
      timedDisk = null
    }
    writeMetrics.incRecordsWritten(records)
    writeMetrics.incBytesWritten(partitionWriter.getNumBytesWritten)
  }

  private def writeRecords(
      elements: Iterator[Product2[K, Any]],
      out: SerializationStream,
      serialize: RecordSample): Long = {
    var records = 0L
    while (elements.hasNext) {
      val record = elements.next()
      if (serialize != null) serialize.begin()
      out.writeKey[Any](record._1)
      out.writeValue[Any](record._2)
      if (serialize != null) serialize.end()
      records += 1
    }
    records
  }

  override def stop(success: Boolean): Option[MapStatus] = {
    try {
      if (stopping) {
        None
      } else {
        stopping = true
        if (success) Option(mapStatus) else None
      }
    } finally {
      if (sorter != null) {
        val start = System.nanoTime()
        sorter.stop()
        writeMetrics.incWriteTime(System.nanoTime() - start)
        sorter = null
      }
    }
  }

  override def getPartitionLengths(): Array[Long] = partitionLengths
}
