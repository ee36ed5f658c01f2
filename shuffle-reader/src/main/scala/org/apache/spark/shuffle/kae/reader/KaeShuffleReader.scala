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

import io.github.kaeshuffle.diagnostics.RecordSample
import io.github.kaeshuffle.format.BlockStats
import io.github.kaeshuffle.pool.DecoderLender
import io.github.kaeshuffle.reader.{PrefetchingSegmentInput, ReaderSettings}

import org.apache.spark.{InterruptibleIterator, ShuffleDependency, SparkEnv, TaskContext}
import org.apache.spark.internal.config
import org.apache.spark.shuffle.{ShuffleReader, ShuffleReadMetricsReporter}
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId}
import org.apache.spark.util.CompletionIterator

/**
 * Reads a range of reduce partitions written by the KAE writers.
 *
 * Fetching is Spark's own `ShuffleBlockFetcherIterator` ([[ReaderShims.fetcher]]) with Spark's
 * settings (flow control, fetch-to-disk, retries, corruption detection, checksum diagnosis). Each
 * fetched stream - one segment, or several back to back for a batch fetch - is decoded by
 * [[SegmentStreams]], which the fetcher sees as its stream wrapper: one codec call per block,
 * CRC32C and index checks, and a bad block raises an IOException that the fetcher turns into a
 * fetch failure (re-fetching a remote block once first, as it does for Spark's own codecs).
 * Aggregation and ordering are Spark's ([[ReduceTail]]).
 *
 * With `spark.shuffle.kae.reader.prefetch` (the default) a stream whose bytes can be had whole is
 * read index-first and decompressed ahead of the deserializer ([[PrefetchingSegmentInput]]).
 *
 * @param decoders the executor's decoders, lent to this task's streams
 * @param doctor measure the shuffle doctor's links: the time in Spark's fetcher and in the
 *     decoded streams exactly, deserialization on one record in [[RecordSample.SAMPLE_EVERY]]
 * @param onStats receives the decoding statistics and where the bytes came from (and the wait for
 *     the decompressor, and the doctor's times) when the task completes
 * @param sqlRowFields the row width when the serializer is Spark SQL's row serializer: its rows
 *     are then read by [[SqlRowReader]] without the serializer's deserializer
 */
private[spark] class KaeShuffleReader[K, C](
    dep: ShuffleDependency[K, _, C],
    blocksByAddress: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
    context: TaskContext,
    readMetrics: ShuffleReadMetricsReporter,
    settings: ReaderSettings,
    decoders: DecoderLender,
    onStats: (BlockStats, ReadSources) => Unit,
    shouldBatchFetch: Boolean,
    sqlRowFields: Option[Int],
    doctor: Boolean = false,
    blockManager: BlockManager = SparkEnv.get.blockManager)
  extends ShuffleReader[K, C] {

  private val shims = ReaderShims.current

  /**
   * Segments are self-delimiting, so any contiguous range can be fetched as one; the serializer
   * must still allow its streams to be concatenated (Kryo, SQL rows: yes; Java: no).
   */
  private def fetchContinuousBlocksInBatch: Boolean =
    shouldBatchFetch && dep.serializer.supportsRelocationOfSerializedObjects &&
      shims.batchFetchAllowed

  override def read(): Iterator[Product2[K, C]] = {
    val blocks = blocksByAddress.toSeq
    val clock = new ReadClock(doctor)
    val streams = openStreams(blocks)
    val fetched =
      try {
        shims.fetcher(
          context,
          blockManager,
          blocks.iterator,
          (id, in) => clock.decoding(streams.decode(id, in)),
          readMetrics,
          fetchContinuousBlocksInBatch)
      } catch {
        case e: Throwable =>
          streams.close()
          throw e
      }
    // Registered after the fetcher's own listener, so it runs first (listeners run in reverse
    // order): decompress-ahead threads stop before the fetcher releases the buffers they read.
    context.addTaskCompletionListener[Unit] { _ =>
      streams.close()
      onStats(streams.stats(), clock.addTo(streams.sources()))
    }
    ReduceTail(dep, context, records(fetched, clock))
  }

  private def openStreams(blocks: Seq[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])])
      : SegmentStreams = {
    val memory = new PrefetchMemory(
      context.taskMemoryManager(),
      settings,
      () => shims.localDir(blockManager).toPath)
    new SegmentStreams(
      settings,
      decoders,
      memory,
      new WholeSegments(
        blockManager,
        memory,
        settings.maxInMemoryRemote,
        settings.localReadLimit),
      new BlockLocations(blocks).apply,
      SparkEnv.get.conf.get(config.SHUFFLE_DETECT_CORRUPT)
    )
  }

  /**
   * The deserialized records of every fetched stream, counted in the read metrics; Spark SQL's
   * rows through [[SqlRowReader]], anything else through the serializer.
   */
  private def records(
      fetched: Iterator[(BlockId, java.io.InputStream)],
      clock: ReadClock): InterruptibleIterator[(Any, Any)] = {
    val streams = clock.fetching(fetched)
    val all: Iterator[(Any, Any)] = sqlRowFields match {
      case Some(fields) => new SqlRowReader(streams.map(_._2), fields)
      case None =>
        val serializer = dep.serializer.newInstance()
        streams.flatMap { case (_, stream) =>
          serializer.deserializeStream(stream).asKeyValueIterator
        }
    }
    val counted = CompletionIterator[(Any, Any), Iterator[(Any, Any)]](
      clock.deserializing(all).map { record =>
        readMetrics.incRecordsRead(1)
        record
      },
      context.taskMetrics().mergeShuffleReadMetrics())
    new InterruptibleIterator[(Any, Any)](context, counted)
  }
}
