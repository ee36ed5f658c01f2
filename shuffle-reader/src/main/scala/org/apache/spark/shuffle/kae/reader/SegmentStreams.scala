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

import java.io.{FilterInputStream, InputStream, IOException}

import io.github.kaeshuffle.codec.CorruptBlockException
import io.github.kaeshuffle.format.{
  BlockDecoder,
  BlockStats,
  Segment,
  SegmentInputStream,
  Segments,
  SegmentStreamDecoder
}
import io.github.kaeshuffle.pool.DecoderLender
import io.github.kaeshuffle.reader.{DecodeWindow, PrefetchingSegmentInput, ReaderSettings}

import org.apache.spark.internal.Logging
import org.apache.spark.storage.{BlockId, BlockManagerId}

/**
 * Turns each stream a reduce task fetches into the stream of its raw bytes; Spark's fetcher calls
 * [[decode]] as its stream wrapper, so every error raised here is a bad stream to Spark.
 *
 * With prefetching on, a stream whose bytes can be had whole ([[WholeSegments]]) is read
 * index-first and decompressed ahead on a [[DecompressorThreads]] thread into a window of
 * [[PrefetchMemory]]; a stream of one block, or with a block larger than the window's slots
 * (written with a larger block size), is decoded from those bytes on the task's thread. Anything
 * else is decoded as it streams in.
 *
 * A merged chunk of push-based shuffle had whole is checked frame by frame (CRC32C, no
 * decompression) before its stream is handed back: Spark reads the original blocks of a chunk
 * whose wrapper fails, while a chunk that fails later, in a read, is a fetch failure that Spark
 * 4.2 and 3.5 pin, for a chunk read from the local disk, on the executor's own address rather than
 * the merger's, so its retried stage reads the same damaged chunk again until the job fails.
 * Decoders are borrowed from the executor's pool: one for the task's thread (streams
 * come in turn), one per decompress-ahead stream while it runs.
 *
 * @param locate where a block lives and its estimated size
 * @param detectCorrupt `spark.shuffle.detectCorrupt`: Spark's fetcher turns a failed read into a
 *        fetch failure, with its checksum diagnosis
 */
private[kae] final class SegmentStreams(
    settings: ReaderSettings,
    decoders: DecoderLender,
    memory: PrefetchMemory,
    whole: WholeSegments,
    locate: BlockId => Option[(BlockManagerId, Long)],
    detectCorrupt: Boolean) extends Logging {

  private val open = new java.util.IdentityHashMap[InputStream, Unit]()
  private val decodeStats = new BlockStats
  private var waitNanos = 0L
  private var taskDecoder: BlockDecoder = _

  def decode(blockId: BlockId, in: InputStream): InputStream =
    try {
      val fromWhole = if (settings.prefetch) decodeWhole(blockId, in) else None
      fromWhole.getOrElse(new SegmentStreamDecoder(in, decoder(), true))
    } catch {
      // Spark fetches a bad remote block once more when its wrapper fails, and asks the checksum
      // for the cause the second time; a block read from a file it diagnoses only when a read
      // fails ([[FailedStream]]), and only when it detects corruption at all. A merged chunk
      // (push-based shuffle) that fails here makes Spark read the original blocks instead.
      case e: IOException
          if detectCorrupt && FetchedBytes.isFileSegment(in) && !blockId.isShuffleChunk =>
        new FailedStream(e, in)
    }

  /** The task thread's decoder, borrowed with the first stream that needs it. */
  private def decoder(): BlockDecoder = {
    if (taskDecoder == null) taskDecoder = decoders.borrow()
    taskDecoder
  }

  private def decodeWhole(blockId: BlockId, in: InputStream): Option[InputStream] =
    whole.of(blockId, in, locate(blockId)).flatMap { bytes =>
      val segments =
        try {
          val all = Segments.split(bytes.bytes)
          // Spark never fetches an empty block: one without a segment lost its bytes.
          if (all.isEmpty) throw new CorruptBlockException(s"$blockId holds no segment.")
          if (blockId.isShuffleChunk) Segments.verifyFrames(all, decoder())
          all
        } catch {
          case e: Exception =>
            bytes.release()
            throw e
        }
      if (blocks(segments) <= 1) {
        // Nothing to decode ahead of: no window, no hand-off to a decompressor thread. With
        // thousands of partitions most streams are one short block.
        Some(inline(segments, bytes, in))
      } else {
        memory.window() match {
          case None =>
            bytes.release()
            None
          case Some(w) if PrefetchingSegmentInput.fits(segments, w) =>
            Some(ahead(segments, w, bytes, in))
          case Some(w) =>
            memory.giveBack(w)
            Some(inline(segments, bytes, in))
        }
      }
    }

  private def blocks(segments: java.util.List[Segment]): Int = {
    var n = 0
    segments.forEach(s => n += s.index().blockCount())
    n
  }

  private def ahead(
      segments: java.util.List[Segment],
      w: DecodeWindow,
      bytes: WholeSegments#Whole,
      in: InputStream): InputStream = {
    val s = new PrefetchingSegmentInput(
      segments,
      w,
      decoders,
      DecompressorThreads.pool,
      (done: PrefetchingSegmentInput) => {
        decodeStats.add(done.decodeStats())
        waitNanos += done.waitNanos()
        bytes.release()
        in.close()
        memory.giveBack(w)
        open.remove(done)
      }
    )
    open.put(s, ())
    s
  }

  /**
   * Decodes bytes had whole on the task's thread (one block, or one too large for the slots).
   * Tracked like the streams decoded ahead: a task that stops before the end of a stream (a
   * `LIMIT`) still releases its bytes and the fetcher's stream when it ends.
   */
  private def inline(
      segments: java.util.List[Segment],
      bytes: WholeSegments#Whole,
      fetched: InputStream): InputStream = {
    // Not named `in`: inside the FilterInputStream that name is its own inherited field.
    val s: InputStream = new FilterInputStream(new SegmentInputStream(segments, decoder())) {
      private var closed = false
      override def close(): Unit =
        if (!closed) {
          closed = true
          try super.close()
          finally {
            open.remove(this)
            bytes.release()
            fetched.close()
          }
        }
    }
    open.put(s, ())
    s
  }

  /** The decoding statistics and where the bytes came from, once [[close]]d. */
  def stats(): BlockStats = decodeStats

  def sources(): ReadSources =
    ReadSources(
      waitNanos,
      whole.mappedBytes,
      whole.fileReadBytes,
      whole.inPlaceBytes,
      whole.copiedBytes,
      whole.otherHostBytes)

  /**
   * Stops the decompressors of streams still open (a failed task's), then frees the memory and
   * gives the task's decoder back.
   */
  def close(): Unit = {
    new java.util.ArrayList(open.keySet()).forEach { s =>
      try s.close()
      catch {
        case e: IOException => logWarning("Could not close a prefetching stream", e)
      }
    }
    memory.close()
    if (taskDecoder != null) {
      decodeStats.add(taskDecoder.stats())
      decoders.giveBack(taskDecoder)
      taskDecoder = null
    }
  }
}
