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

import java.io.{EOFException, InputStream}
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.file.StandardOpenOption

import io.github.kaeshuffle.codec.DirectMemory
import org.apache.commons.io.IOUtils

import org.apache.spark.network.buffer.FileSegmentManagedBuffer
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId}

/**
 * The bytes of a fetched stream had whole, for decoding index-first, and where they came from:
 *  - segments on this host are taken from their file: written by this executor, or by another on
 *    this host (host-local reads, `spark.shuffle.readHostLocalDisk`: common on YARN with several
 *    executors per node). The file is the one Spark's fetcher already opened for the block's
 *    stream, positioned at the segment, so there is no second look-up in the index and no second
 *    open; only where that stream cannot be reached are the file and offset asked of Spark's
 *    resolver again. A segment of up to `localReadLimit` bytes is read with one positional
 *    read into a heap copy, a larger one memory-mapped;
 *  - fetched ranges up to `maxInMemory` are used where Netty received them when they are one
 *    region, gathered with one copy into a staging buffer when Netty assembled them from parts,
 *    and read from the stream into a heap copy (on-heap execution memory, or the range streams
 *    in) where the buffer cannot be reached.
 * The fetcher's own stream is left unread, so Spark's checksum diagnosis still sees every byte.
 */
private[kae] final class WholeSegments(
    blockManager: BlockManager,
    memory: PrefetchMemory,
    maxInMemory: Long,
    localReadLimit: Int) {

  var mappedBytes = 0L
  var fileReadBytes = 0L
  var inPlaceBytes = 0L
  var copiedBytes = 0L

  /**
   * Of the fetched bytes, those from a block manager on another host (by its host name), or from a
   * push-merged chunk's server: what crossed a link. Executors of one host fetch from each other
   * too, and their waits are for a busy core, not a link.
   */
  var otherHostBytes = 0L

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
      if (address.host == blockManager.blockManagerId.host) {
        onThisHost(blockId, address, in).orElse(inMemory(in, size))
      } else {
        inMemory(in, size).map(fromAnotherHost)
      }
    case None =>
      FetchedBytes.fileSegment(in).map { case (ch, offset, length) => fromFile(ch, offset, length) }
        .orElse {
          val length = in.available().toLong
          if (length > 0) inMemory(in, length).map(fromAnotherHost) else None
        }
  }

  /** The fetched stream's `size` bytes in memory, where they are within `maxInMemory`. */
  private def inMemory(in: InputStream, size: Long): Option[Whole] =
    if (size <= maxInMemory) fetched(in, size) else None

  private def fromAnotherHost(w: Whole): Whole = {
    otherHostBytes += w.bytes.remaining()
    w
  }

  /** A segment of a block manager on this host, from its file where that can be reached. */
  private def onThisHost(
      blockId: BlockId,
      address: BlockManagerId,
      in: InputStream): Option[Whole] =
    FetchedBytes.fileSegment(in) match {
      // The channel belongs to the fetcher's stream, which closes it; reads at a position and
      // maps leave the stream where it is, unread, for Spark's checksum diagnosis.
      case Some((ch, offset, length)) => Some(fromFile(ch, offset, length))
      case None => resolved(blockId, address)
    }

  /** The segment found again by Spark's resolver (the fetcher's stream could not be reached). */
  private def resolved(blockId: BlockId, address: BlockManagerId): Option[Whole] =
    ReaderShims.current.localBlockData(blockManager, blockId, address) match {
      case Some(f: FileSegmentManagedBuffer) if f.getLength <= Int.MaxValue =>
        val ch = FileChannel.open(f.getFile.toPath, StandardOpenOption.READ)
        try Some(fromFile(ch, f.getOffset, f.getLength.toInt))
        finally ch.close()
      case _ => None
    }

  /**
   * A small segment read into a heap copy (when on-heap execution memory allows), a larger one
   * mapped. At thousands of partitions most segments are a few KB, and a map costs two system
   * calls, a page fault and, on unmapping, the other cores' TLB flushes: more than the copy.
   */
  private def fromFile(ch: FileChannel, offset: Long, length: Int): Whole =
    if (length <= localReadLimit && memory.reserveHeapCopy(length)) {
      read(ch, offset, length)
    } else {
      map(ch, offset, length)
    }

  private def read(ch: FileChannel, offset: Long, length: Int): Whole = {
    val b = ByteBuffer.allocate(length)
    try {
      while (b.hasRemaining) {
        if (ch.read(b, offset + b.position()) < 0) {
          throw new EOFException(
            s"The shuffle file ends ${b.remaining()} bytes before the end of the segment at " +
              s"offset $offset ($length bytes).")
        }
      }
    } catch {
      case e: Throwable =>
        memory.releaseHeapCopy(length)
        throw e
    }
    b.flip()
    fileReadBytes += length
    Whole(b, () => memory.releaseHeapCopy(length))
  }

  private def map(ch: FileChannel, offset: Long, length: Int): Whole = {
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
