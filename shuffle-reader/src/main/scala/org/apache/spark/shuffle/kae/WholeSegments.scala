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

import java.io.InputStream
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.file.StandardOpenOption

import io.github.kaeshuffle.codec.DirectMemory
import org.apache.commons.io.IOUtils

import org.apache.spark.network.buffer.FileSegmentManagedBuffer
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId}

/**
 * The bytes of a fetched stream had whole, for decoding index-first, and where they came from:
 *  - segments on this host are memory-mapped from their file: written by this executor, or by
 *    another on this host whose dirs Spark's fetcher looked up (host-local reads,
 *    `spark.shuffle.readHostLocalDisk`: common on YARN with several executors per node). Spark's
 *    fetcher hands out the first block of another executor a moment before it caches that
 *    executor's dirs, so then the file region is taken from the fetcher's own stream over it;
 *  - fetched ranges up to `maxInMemory` are used where Netty received them when they are one
 *    region, gathered with one copy into a staging buffer when Netty assembled them from parts,
 *    and read from the stream into a heap copy (on-heap execution memory, or the range streams
 *    in) where the buffer cannot be reached.
 * The fetcher's own stream is left unread, so Spark's checksum diagnosis still sees every byte.
 */
private[kae] final class WholeSegments(
    blockManager: BlockManager,
    memory: PrefetchMemory,
    maxInMemory: Long) {

  var mappedBytes = 0L
  var inPlaceBytes = 0L
  var copiedBytes = 0L

  /** Bytes and how to release them once decoded. */
  final case class Whole(bytes: ByteBuffer, release: () => Unit)

  /**
   * The stream's bytes whole, or None: a remote range over `maxInMemory` (streamed instead), or
   * memory for staging not granted. `location` is where the block lives and its estimated size;
   * None for a chunk of a push-merged block, which the fetcher cut from the merged block the
   * map output tracker lists: the chunk's stream itself says where its bytes are.
   */
  def of(
      blockId: BlockId,
      in: InputStream,
      location: Option[(BlockManagerId, Long)]): Option[Whole] = location match {
    case Some((address, size)) =>
      mapOnThisHost(blockId, address, in).orElse(if (size <= maxInMemory) fetched(in, size)
      else None)
    case None =>
      FetchedBytes.fileSegment(in).map { case (ch, offset, length) => map(ch, offset, length) }
        .orElse {
          val length = in.available().toLong
          if (length > 0 && length <= maxInMemory) fetched(in, length) else None
        }
  }

  private def mapOnThisHost(
      blockId: BlockId,
      address: BlockManagerId,
      in: InputStream): Option[Whole] = {
    ReaderShims.current.localBlockData(blockManager, blockId, address) match {
      case Some(f: FileSegmentManagedBuffer) if f.getLength <= Int.MaxValue =>
        val ch = FileChannel.open(f.getFile.toPath, StandardOpenOption.READ)
        try Some(map(ch, f.getOffset, f.getLength))
        finally ch.close()
      case None if address.host == blockManager.blockManagerId.host =>
        // The channel belongs to the fetcher's stream, which closes it.
        FetchedBytes.fileSegment(in).map { case (ch, offset, length) => map(ch, offset, length) }
      case _ => None
    }
  }

  private def map(ch: FileChannel, offset: Long, length: Long): Whole = {
    val m = ch.map(FileChannel.MapMode.READ_ONLY, offset, length)
    mappedBytes += length
    Whole(m, () => DirectMemory.free(m))
  }

  /** `size`: the map output tracker's estimate of the range's length. */
  private def fetched(in: InputStream, size: Long): Option[Whole] = FetchedBytes.of(in) match {
    case Some(FetchedBytes.Whole(b)) =>
      inPlaceBytes += b.remaining()
      Some(Whole(b, () => ()))
    case Some(p: FetchedBytes.Parts) =>
      memory.staging(p.length).map { buf =>
        p.copyTo(buf)
        copiedBytes += p.length
        val view = buf.duplicate()
        view.limit(p.length)
        Whole(view.slice(), () => memory.giveBackStaging(buf))
      }
    case None =>
      // A stream over a file (fetched to disk) knows its length; others have the estimate.
      val available = in.available()
      val length = if (available > 0) available.toLong else size
      if (!memory.reserveHeapCopy(length)) None
      else {
        val a =
          try IOUtils.toByteArray(in) // InputStream.readAllBytes is Java 9
          catch {
            case e: Throwable =>
              memory.releaseHeapCopy(length)
              throw e
          }
        copiedBytes += a.length
        Some(Whole(ByteBuffer.wrap(a), () => memory.releaseHeapCopy(length)))
      }
  }
}
