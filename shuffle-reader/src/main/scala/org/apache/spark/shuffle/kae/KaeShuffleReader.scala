package org.apache.spark.shuffle.kae

import java.io.{FilterInputStream, InputStream, IOException}
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.file.StandardOpenOption
import java.util.concurrent.{ExecutorService, Executors, ThreadFactory}
import java.util.concurrent.atomic.AtomicInteger

import io.github.kaeshuffle.format.{BlockDecoder, BlockStats, SegmentInputStream,
  RecordSample, SegmentStreamDecoder}
import io.github.kaeshuffle.reader.{DecodeWindow, PrefetchingSegmentInput, ReaderSettings}

import org.apache.spark.{Aggregator, InterruptibleIterator, ShuffleDependency, SparkEnv,
  TaskContext}
import org.apache.spark.internal.{config, Logging}
import org.apache.spark.memory.{MemoryConsumer, MemoryMode, TaskMemoryManager}
import org.apache.spark.network.buffer.FileSegmentManagedBuffer
import org.apache.spark.shuffle.{ShuffleReader, ShuffleReadMetricsReporter}
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId, ShuffleBlockBatchId,
  ShuffleBlockFetcherIterator, ShuffleBlockId}
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
 * With `spark.shuffle.kae.reader.prefetch` (the default) a stream whose bytes can be had whole is
 * read index-first and decompressed ahead of the deserializer ([[PrefetchingSegmentInput]]):
 * blocks of this executor are memory-mapped from their file (the fetcher's own stream is left
 * unread), fetched blocks up to `maxInMemoryRemote` are read into memory; the decoded blocks wait
 * in a bounded window of execution memory. Anything else is decoded as it streams in.
 *
 * @param doctor measure the shuffle doctor's links: the time in Spark's fetcher and in the
 *     decoded streams exactly, deserialization on one record in [[RecordSample.SAMPLE_EVERY]]
 * @param onStats receives the decoding statistics and where the bytes came from (and the wait for
 *     the decompressor, and the doctor's times) when the task completes
 */
private[spark] class KaeShuffleReader[K, C](
    dep: ShuffleDependency[K, _, C],
    blocksByAddress: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
    context: TaskContext,
    readMetrics: ShuffleReadMetricsReporter,
    settings: ReaderSettings,
    onStats: (BlockStats, ReadSources) => Unit,
    shouldBatchFetch: Boolean,
    doctor: Boolean = false,
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
    val blocks = blocksByAddress.toSeq
    val blockInfo: Map[BlockId, (BlockManagerId, Long)] = blocks.flatMap { case (address, ids) =>
      ids.map { case (id, size, _) => id -> (address, size) }
    }.toMap
    // Where a fetched stream's bytes are and their (estimated) size. A batch of contiguous
    // partitions is looked up by the blocks it merges.
    def infoOf(id: BlockId): Option[(BlockManagerId, Long)] = id match {
      case ShuffleBlockBatchId(shuffle, map, start, end) =>
        val parts = (start until end).map(r => blockInfo.get(ShuffleBlockId(shuffle, map, r)))
        if (parts.isEmpty || parts.exists(_.isEmpty)) None
        else Some((parts.head.get._1, parts.map(_.get._2).sum))
      case other => blockInfo.get(other)
    }
    // One streaming decoder per task, used by one stream at a time (the fetcher hands them out in
    // turn); prefetching streams make their own on the decompressor thread.
    val decoder = new BlockDecoder(settings.decoderCodec)
    val ahead = new Prefetch(context.taskMemoryManager())
    val times = new ReadClock(doctor)
    def wrap(blockId: BlockId, in: InputStream): InputStream = {
      val opened = if (settings.prefetch) ahead.open(blockId, in, infoOf(blockId)) else None
      times.decoding(opened.getOrElse(new SegmentStreamDecoder(in, decoder)))
    }
    val streams = try new ShuffleBlockFetcherIterator(
      context,
      blockManager.blockStoreClient,
      blockManager,
      SparkEnv.get.mapOutputTracker,
      blocks.iterator,
      wrap,
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
    catch {
      case e: Throwable =>
        decoder.close()
        ahead.close()
        throw e
    }
    // Registered after the fetcher's own listener, so it runs first (listeners run in reverse
    // order): decompress-ahead threads stop before the fetcher releases the buffers they read.
    context.addTaskCompletionListener[Unit] { _ =>
      decoder.close()
      ahead.close()
      val stats = decoder.stats()
      stats.add(ahead.stats)
      onStats(stats, times.addTo(ahead.sources()))
    }

    val serializer = dep.serializer.newInstance()
    val records = times.fetching(streams).flatMap { case (_, stream) =>
      serializer.deserializeStream(stream).asKeyValueIterator
    }
    val counted = CompletionIterator[(Any, Any), Iterator[(Any, Any)]](
      times.deserializing(records).map { record =>
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

  /**
   * The task's decompress-ahead state: one window of execution memory, reused by its streams in
   * turn (a second one only if two streams are open at once), off-heap staging buffers for
   * fetched ranges Netty received in several parts, all freed when the task ends - after the
   * streams still open (a failed task's) have stopped their decompressors.
   */
  private class Prefetch(tmm: TaskMemoryManager)
      extends MemoryConsumer(tmm, MemoryMode.ON_HEAP) {
    private var idle: List[DecodeWindow] = Nil
    private var all: List[DecodeWindow] = Nil
    private var idleStaging: List[ByteBuffer] = Nil
    private var allStaging: List[ByteBuffer] = Nil
    private val open = new java.util.IdentityHashMap[InputStream, Unit]()
    val stats = new BlockStats
    private var waitNanos = 0L
    private var mappedBytes = 0L
    private var inPlaceBytes = 0L
    private var copiedBytes = 0L

    def sources(): ReadSources = ReadSources(waitNanos, mappedBytes, inPlaceBytes, copiedBytes)

    override def spill(size: Long, trigger: MemoryConsumer): Long = 0L // buffers are in use

    /** A prefetching stream over the block's bytes, when they can be had whole; else None. */
    def open(blockId: BlockId, in: InputStream, info: Option[(BlockManagerId, Long)])
        : Option[InputStream] = {
      // The size is the map status's estimate (Spark stores sizes rounded): only used to choose
      // between memory and streaming. A truncated range fails the segment checks.
      val size = info.map(_._2).getOrElse(Long.MaxValue)
      val data: Option[(ByteBuffer, () => Unit)] =
        info.flatMap { case (address, _) => mapOnThisHost(blockId, address, in) }
          .orElse(if (size <= settings.maxInMemoryRemote) fetched(in) else None)
      data.flatMap { case (bytes, release) =>
        window() match {
          case Some(w) =>
            try {
              val s = new PrefetchingSegmentInput(bytes, w,
                () => new BlockDecoder(settings.decoderCodec), KaeShuffleReader.decompressors,
                (done: PrefetchingSegmentInput) => {
                  stats.add(done.decodeStats())
                  waitNanos += done.waitNanos()
                  release()
                  in.close()
                  idle = w :: idle
                  open.remove(done)
                })
              open.put(s, ())
              Some(s)
            } catch {
              case _: IllegalArgumentException =>
                // A block larger than the window's slots (written with a larger block size):
                // decode these bytes without prefetching.
                idle = w :: idle
                val whole = new BlockDecoder(settings.decoderCodec)
                Some(new FilterInputStream(new SegmentInputStream(bytes, whole)) {
                  override def close(): Unit = try super.close() finally {
                    stats.add(whole.stats())
                    whole.close()
                    release()
                    in.close()
                  }
                })
              case e: Exception =>
                idle = w :: idle
                release()
                throw e
            }
          case None =>
            release()
            None
        }
      }
    }

    /**
     * A fetched range's bytes: in place where Netty received them in one region; gathered with
     * one copy into a staging buffer where it received them in parts (or copied from the stream
     * when the buffer cannot be reached); None when memory for staging is not granted.
     */
    private def fetched(in: InputStream): Option[(ByteBuffer, () => Unit)] =
      FetchedBytes.of(in) match {
        case Some(FetchedBytes.Whole(b)) =>
          inPlaceBytes += b.remaining()
          Some((b, () => ()))
        case Some(p: FetchedBytes.Parts) =>
          staging(p.length).map { buf =>
            p.copyTo(buf)
            copiedBytes += p.length
            val view = buf.duplicate()
            view.limit(p.length)
            (view.slice(), () => idleStaging = buf :: idleStaging)
          }
        case None =>
          val a = in.readAllBytes()
          copiedBytes += a.length
          Some((ByteBuffer.wrap(a), () => ()))
      }

    /** An idle staging buffer of at least `length` bytes, or a new one if memory allows. */
    private def staging(length: Int): Option[ByteBuffer] =
      idleStaging.find(_.capacity() >= length) match {
        case Some(b) =>
          idleStaging = idleStaging.filterNot(_ eq b)
          Some(b)
        case None =>
          val mib = 1L << 20
          val capacity = math.min(Int.MaxValue.toLong, (length + mib - 1) & ~(mib - 1))
          val granted = acquireMemory(capacity)
          if (granted < capacity) {
            freeMemory(granted)
            None
          } else {
            val b = ByteBuffer.allocateDirect(capacity.toInt)
            allStaging = b :: allStaging
            Some(b)
          }
      }

    /** A window from the pool, or a new one if execution memory allows; None when it does not. */
    private def window(): Option[DecodeWindow] = idle match {
      case w :: rest =>
        idle = rest
        Some(w)
      case Nil =>
        val slots = settings.slots(settings.slotSize)
        val bytes = slots.toLong * settings.slotSize
        val granted = acquireMemory(bytes)
        if (granted < bytes) {
          freeMemory(granted)
          None
        } else {
          val dir = SparkEnv.get.blockManager.diskBlockManager.localDirs.head.toPath
          val w = DecodeWindow.allocate(settings.windowKind, slots, settings.slotSize, dir)
          all = w :: all
          Some(w)
        }
    }

    /**
     * Maps the block's file segment when its file is on this host: written by this executor, or
     * by another one on this host whose directories Spark's fetcher has looked up (host-local
     * reads, `spark.shuffle.readHostLocalDisk`: common on YARN with several executors per node).
     * The first block of another executor can arrive a moment before Spark caches that
     * executor's directories (its fetcher runs the callback first): then the segment is taken
     * from the fetcher's own stream over it. None otherwise, and for ranges over 2 GiB.
     */
    private def mapOnThisHost(blockId: BlockId, address: BlockManagerId, in: InputStream)
        : Option[(ByteBuffer, () => Unit)] = {
      val self = blockManager.blockManagerId
      val buffer =
        if (address.executorId == self.executorId) Some(blockManager.getLocalBlockData(blockId))
        else if (address.host == self.host) {
          blockManager.hostLocalDirManager
            .flatMap(_.getCachedHostLocalDirsFor(address.executorId))
            .map(dirs => blockManager.getHostLocalShuffleData(blockId, dirs))
        } else None
      buffer match {
        case Some(f: FileSegmentManagedBuffer) if f.getLength <= Int.MaxValue =>
          val ch = FileChannel.open(f.getFile.toPath, StandardOpenOption.READ)
          try Some(map(ch, f.getOffset, f.getLength)) finally ch.close()
        case None if address.host == self.host =>
          // The channel belongs to the fetcher's stream, which closes it.
          FetchedBytes.fileSegment(in).map { case (ch, offset, length) =>
            map(ch, offset, length)
          }
        case _ => None
      }
    }

    private def map(ch: FileChannel, offset: Long, length: Long): (ByteBuffer, () => Unit) = {
      val m = ch.map(FileChannel.MapMode.READ_ONLY, offset, length)
      mappedBytes += length
      (m, () => DecodeWindow.free(m))
    }

    def close(): Unit = {
      // A failed task leaves its streams open: stop their decompressors before freeing memory.
      new java.util.ArrayList(open.keySet()).forEach { s =>
        try s.close() catch {
          case e: IOException => logWarning("Could not close a prefetching stream", e)
        }
      }
      allStaging.foreach { b =>
        DecodeWindow.free(b)
        freeMemory(b.capacity())
      }
      allStaging = Nil
      idleStaging = Nil
      all.foreach { w =>
        try w.close() catch {
          case e: IOException => logWarning("Could not release a decode window", e)
        }
        freeMemory(w.bytes())
      }
      all = Nil
      idle = Nil
    }
  }
}

private[spark] object KaeShuffleReader {
  /** Executor-wide daemon threads that decompress ahead, one per open prefetching stream. */
  lazy val decompressors: ExecutorService = Executors.newCachedThreadPool(new ThreadFactory {
    private val n = new AtomicInteger
    override def newThread(r: Runnable): Thread = {
      val t = new Thread(r, s"kae-shuffle-decompress-${n.incrementAndGet()}")
      t.setDaemon(true)
      t
    }
  })
}

/**
 * Where a reduce task's shuffle bytes came from, besides the decoding statistics.
 *
 * @param waitNanos time the deserializer waited for blocks decompressed ahead
 * @param mappedBytes segments on this host (this executor's, or host-local ones) read through a
 *     memory map
 * @param inPlaceBytes fetched ranges decoded where Netty received them
 * @param copiedBytes fetched ranges copied once before decoding (received in several parts)
 * @param fetchNanos the doctor's fetch link: time in Spark's fetcher, waiting for fetched blocks
 *     and opening them (exact; 0 when the doctor is off)
 * @param decodeNanos the doctor's decompress link as the task's thread sees it: time reading
 *     decoded bytes (decompressing inline, or waiting for blocks decompressed ahead; exact)
 * @param deserializeNanos the doctor's deserialization link (estimated from sampled records)
 */
private[spark] case class ReadSources(
    waitNanos: Long, mappedBytes: Long, inPlaceBytes: Long, copiedBytes: Long,
    fetchNanos: Long = 0L, decodeNanos: Long = 0L, deserializeNanos: Long = 0L)

/**
 * The doctor's clock of one reader; every method passes its argument through unchanged when the
 * doctor is off. Task thread only.
 */
private[kae] final class ReadClock(doctor: Boolean) {
  private var fetchNanos = 0L
  private var decodeNanos = 0L
  private val deserialize =
    if (doctor) new RecordSample(() => fetchNanos + decodeNanos) else null

  private def addFetch(t0: Long): Unit = fetchNanos += System.nanoTime() - t0

  private def addDecode(t0: Long): Unit = decodeNanos += System.nanoTime() - t0

  /** Times the fetcher's hasNext and next: one call per block. */
  def fetching[T](blocks: Iterator[T]): Iterator[T] = if (!doctor) blocks else {
    new Iterator[T] {
      override def hasNext: Boolean = {
        val t = System.nanoTime()
        try blocks.hasNext finally addFetch(t)
      }

      override def next(): T = {
        val t = System.nanoTime()
        try blocks.next() finally addFetch(t)
      }
    }
  }

  /** Times the reads (and the close) of a decoded stream: one call per deserializer refill. */
  def decoding(in: InputStream): InputStream = if (!doctor) in else {
    new FilterInputStream(in) {
      override def read(): Int = {
        val t = System.nanoTime()
        try in.read() finally addDecode(t)
      }

      override def read(b: Array[Byte], off: Int, len: Int): Int = {
        val t = System.nanoTime()
        try in.read(b, off, len) finally addDecode(t)
      }

      override def skip(n: Long): Long = {
        val t = System.nanoTime()
        try in.skip(n) finally addDecode(t)
      }

      // Closing a stream decompressed ahead stops its decompressor and gives its window back.
      override def close(): Unit = {
        val t = System.nanoTime()
        try in.close() finally addDecode(t)
      }
    }
  }

  /**
   * Samples the records' hasNext and next, where the deserializer works; the fetching and
   * decoding nested in a sample are left out (they are timed exactly).
   */
  def deserializing[T](it: Iterator[T]): Iterator[T] = if (!doctor) it else {
    new Iterator[T] {
      override def hasNext: Boolean = {
        deserialize.begin()
        it.hasNext
      }

      override def next(): T = {
        val r = it.next()
        deserialize.end()
        r
      }
    }
  }

  def addTo(s: ReadSources): ReadSources = if (!doctor) s else
    s.copy(fetchNanos = fetchNanos, decodeNanos = decodeNanos,
      deserializeNanos = deserialize.estimate())
}
