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

import java.io.{FileInputStream, FilterInputStream, InputStream}
import java.lang.reflect.Field
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.util.zip.CheckedInputStream

import scala.util.Try

import io.netty.buffer.{ByteBuf, ByteBufInputStream}

import org.apache.spark.network.util.LimitedInputStream

/**
 * Reaches the Netty buffer behind a fetched block's stream, so the reader can decode a fetched
 * range where Netty received it instead of reading it through the stream into a copy.
 *
 * Spark hands the stream wrapper `ManagedBuffer.createInputStream()`, which for a block fetched
 * into memory (NettyManagedBuffer, NioManagedBuffer) is a Netty `ByteBufInputStream` over the
 * received buffer, wrapped in a `CheckedInputStream` when `spark.shuffle.checksum.enabled`. The
 * checksum wrapper is used only for Spark's corruption diagnosis, which reads what is left of the
 * stream; leaving the stream unread keeps that diagnosis whole. The fields are read by
 * reflection (`FilterInputStream.in` needs `--add-opens java.base/java.io`, which Spark's launcher
 * passes to every driver and executor); where that is refused the reader copies, as before.
 */
private[kae] object FetchedBytes {

  /** The received bytes of a fetched block, and whether they are one region or several. */
  sealed trait Bytes { def length: Int }

  /** One contiguous region of the received buffer: decoded in place. */
  final case class Whole(buffer: ByteBuffer) extends Bytes {
    def length: Int = buffer.remaining()
  }

  /**
   * Netty assembled the range from several socket reads (a CompositeByteBuf): frames straddle the
   * parts, so it is gathered with one copy into off-heap memory (`copyTo`).
   */
  final case class Parts(buf: ByteBuf, index: Int, length: Int) extends Bytes {
    def copyTo(dst: ByteBuffer): Unit = {
      val d = dst.duplicate()
      d.limit(d.position() + length)
      buf.getBytes(index, d)
    }
  }

  private def field(c: Class[_], name: String): Option[Field] =
    Try { val f = c.getDeclaredField(name); f.setAccessible(true); f }.toOption

  private lazy val filterIn = field(classOf[FilterInputStream], "in")
  private lazy val byteBufOf = field(classOf[ByteBufInputStream], "buffer")
  private lazy val limitLeft = field(classOf[LimitedInputStream], "left")

  /** The stream inside Spark's checksum wrapper, if there is one. */
  private def unchecked(in: InputStream): Option[InputStream] = in match {
    case c: CheckedInputStream => filterIn.flatMap(f => Try(f.get(c)).toOption)
        .collect { case s: InputStream => s }
    case other => Some(other)
  }

  /**
   * The file region behind a block read from a file on this host: Spark's stream over a
   * `FileSegmentManagedBuffer` is a `LimitedInputStream` over a `FileInputStream` positioned at
   * the segment. Returns the file's channel, the segment's offset and its length as Spark's index
   * gives it (the stream's limit, not what the file still holds: a file cut short must fail the
   * read, not shorten the segment); None for other streams and for segments of 2 GiB or more.
   */
  def fileSegment(in: InputStream): Option[(FileChannel, Long, Int)] =
    unchecked(in).flatMap {
      case l: LimitedInputStream =>
        for {
          fis <- filterIn.flatMap(f => Try(f.get(l)).toOption).collect {
            case fis: FileInputStream => fis
          }
          length <- limitLeft.flatMap(f => Try(f.getLong(l)).toOption)
          if length < Int.MaxValue
          ch <- Try(fis.getChannel).toOption
          at <- Try(ch.position()).toOption
        } yield (ch, at, length.toInt)
      case _ => None
    }

  /**
   * Whether the stream reads a file (Spark's stream over a `FileSegmentManagedBuffer`: a block on
   * this host, or a remote one fetched to disk), the streams Spark never fetches again.
   */
  def isFileSegment(in: InputStream): Boolean =
    unchecked(in).exists(_.isInstanceOf[LimitedInputStream])

  /** The bytes behind a fetched block's stream, or None if they cannot be reached (copy). */
  def of(in: InputStream): Option[Bytes] = {
    unchecked(in).flatMap {
      case s: ByteBufInputStream =>
        byteBufOf.flatMap(f => Try(f.get(s)).toOption).collect {
          case buf: ByteBuf =>
            // The stream reads from the buffer's reader index for available() bytes.
            val index = buf.readerIndex()
            val length = s.available()
            if (buf.nioBufferCount() == 1) Whole(buf.nioBuffer(index, length))
            else Parts(buf, index, length)
        }
      case _ => None
    }
  }
}
