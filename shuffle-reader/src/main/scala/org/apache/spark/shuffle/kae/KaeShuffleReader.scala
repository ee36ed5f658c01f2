package org.apache.spark.shuffle.kae

import io.github.kaeshuffle.format.{BlockDecoder, BlockStats, SegmentStreamDecoder}
import io.github.kaeshuffle.reader.ReaderSettings

import org.apache.spark.{Aggregator, InterruptibleIterator, ShuffleDependency, SparkEnv,
  TaskContext}
import org.apache.spark.internal.{config, Logging}
import org.apache.spark.shuffle.{ShuffleReader, ShuffleReadMetricsReporter}
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId,
  ShuffleBlockFetcherIterator}
import org.apache.spark.util.CompletionIterator
import org.apache.spark.util.collection.ExternalSorter

/**
 * Reads a range of reduce partitions written by the KAE writers.
 *
 * Fetching is Spark's own [[ShuffleBlockFetcherIterator]] with Spark's settings (flow control,
 * fetch-to-disk, retries, corruption detection, checksum diagnosis). Each fetched stream - one
 * segment, or several back to back for a batch fetch - is decoded by a [[SegmentStreamDecoder]]
 * that the fetcher sees as its stream wrapper: one codec call per block, CRC32C and index checks,
 * and a bad block raises an IOException that the fetcher turns into a fetch failure (re-fetching a
 * remote block once first, as it does for Spark's own codecs). Aggregation and ordering are done
 * as Spark's reader does them.
 *
 * @param onStats receives the decoding statistics when the task completes
 */
private[spark] class KaeShuffleReader[K, C](
    dep: ShuffleDependency[K, _, C],
    blocksByAddress: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
    context: TaskContext,
    readMetrics: ShuffleReadMetricsReporter,
    settings: ReaderSettings,
    onStats: BlockStats => Unit,
    shouldBatchFetch: Boolean,
    blockManager: BlockManager = SparkEnv.get.blockManager)
  extends ShuffleReader[K, C] with Logging {

  /**
   * Segments are self-delimiting, so any contiguous range can be fetched as one; the serializer
   * must still allow its streams to be concatenated (Kryo, SQL rows: yes; Java: no).
   */
  private def fetchContinuousBlocksInBatch: Boolean = {
    val conf = SparkEnv.get.conf
    shouldBatchFetch && dep.serializer.supportsRelocationOfSerializedObjects &&
      !conf.get(config.SHUFFLE_USE_OLD_FETCH_PROTOCOL) && !conf.get(config.IO_ENCRYPTION_ENABLED)
  }

  override def read(): Iterator[Product2[K, C]] = {
    val conf = SparkEnv.get.conf
    // One decoder per task, used by one stream at a time (the fetcher hands them out in turn).
    val decoder = new BlockDecoder(settings.decoderCodec)
    context.addTaskCompletionListener[Unit] { _ =>
      decoder.close()
      onStats(decoder.stats())
    }
    val streams = new ShuffleBlockFetcherIterator(
      context,
      blockManager.blockStoreClient,
      blockManager,
      SparkEnv.get.mapOutputTracker,
      blocksByAddress,
      (_, in) => new SegmentStreamDecoder(in, decoder),
      conf.get(config.REDUCER_MAX_SIZE_IN_FLIGHT) * 1024 * 1024,
      conf.get(config.REDUCER_MAX_REQS_IN_FLIGHT),
      conf.get(config.REDUCER_MAX_BLOCKS_IN_FLIGHT_PER_ADDRESS),
      conf.get(config.MAX_REMOTE_BLOCK_SIZE_FETCH_TO_MEM),
      conf.get(config.SHUFFLE_MAX_ATTEMPTS_ON_NETTY_OOM),
      conf.get(config.SHUFFLE_DETECT_CORRUPT),
      conf.get(config.SHUFFLE_DETECT_CORRUPT_MEMORY),
      conf.get(config.SHUFFLE_CHECKSUM_ENABLED),
      conf.get(config.SHUFFLE_CHECKSUM_ALGORITHM),
      readMetrics,
      fetchContinuousBlocksInBatch).toCompletionIterator

    val serializer = dep.serializer.newInstance()
    val records = streams.flatMap { case (_, stream) =>
      serializer.deserializeStream(stream).asKeyValueIterator
    }
    val counted = CompletionIterator[(Any, Any), Iterator[(Any, Any)]](
      records.map { record =>
        readMetrics.incRecordsRead(1)
        record
      },
      context.taskMetrics().mergeShuffleReadMetrics())
    val interruptible = new InterruptibleIterator[(Any, Any)](context, counted)

    val result: Iterator[Product2[K, C]] = if (dep.keyOrdering.isDefined) {
      val sorter: ExternalSorter[K, _, C] = if (dep.aggregator.isDefined) {
        if (dep.mapSideCombine) {
          new ExternalSorter[K, C, C](context,
            Option(new Aggregator[K, C, C](identity, dep.aggregator.get.mergeCombiners,
              dep.aggregator.get.mergeCombiners)),
            ordering = Some(dep.keyOrdering.get), serializer = dep.serializer)
        } else {
          new ExternalSorter[K, Nothing, C](context,
            dep.aggregator.asInstanceOf[Option[Aggregator[K, Nothing, C]]],
            ordering = Some(dep.keyOrdering.get), serializer = dep.serializer)
        }
      } else {
        new ExternalSorter[K, C, C](context, ordering = Some(dep.keyOrdering.get),
          serializer = dep.serializer)
      }
      sorter.insertAllAndUpdateMetrics(interruptible.asInstanceOf[Iterator[(K, Nothing)]])
    } else if (dep.aggregator.isDefined) {
      if (dep.mapSideCombine) {
        dep.aggregator.get.combineCombinersByKey(
          interruptible.asInstanceOf[Iterator[(K, C)]], context)
      } else {
        dep.aggregator.get.combineValuesByKey(
          interruptible.asInstanceOf[Iterator[(K, Nothing)]], context)
      }
    } else {
      interruptible.asInstanceOf[Iterator[(K, C)]]
    }

    result match {
      case _: InterruptibleIterator[Product2[K, C]] => result
      case _ => new InterruptibleIterator[Product2[K, C]](context, result)
    }
  }
}
