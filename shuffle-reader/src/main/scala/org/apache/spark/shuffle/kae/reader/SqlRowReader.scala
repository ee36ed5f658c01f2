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

import java.io.{EOFException, InputStream, IOException}

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.unsafe.Platform

/**
 * The rows of Spark SQL's shuffle streams, read without Spark's `UnsafeRowSerializer`
 * deserializer: the same format (per row a 4-byte big-endian length, then the row's bytes; the
 * stream ends after a whole row), parsed from our own buffers.
 *
 * Spark's deserializer reads each length through `DataInputStream.readInt` over a
 * `BufferedInputStream` (four synchronized one-byte reads) and copies every row into a row
 * buffer; TPC-H profiles show that `readInt` among the executor threads' hottest frames
 * (docs/benchmarks/Tpch-sf1.md). Here the length
 * is read from an array and the row is pointed at the buffer it arrived in, without a copy.
 *
 * Spark's contract holds: one `UnsafeRow` object (and one tuple) is reused, and a returned row
 * stays valid until the next `next()`. For that, new bytes always go into the other of two
 * buffers, never into the one holding the row returned last; a row that does not fit whole in
 * the current buffer is moved to the start of the other one with the bytes that follow.
 *
 * @param streams the decoded streams, in order; each is closed when its rows are consumed
 * @param numFields the rows' field count (the serializer's)
 */
private[kae] final class SqlRowReader(streams: Iterator[InputStream], numFields: Int)
  extends Iterator[(Int, UnsafeRow)] {

  private var buffer = new Array[Byte](SqlRowReader.FirstBuffer)
  private var other = new Array[Byte](SqlRowReader.FirstBuffer)
  private var pos = 0
  private var limit = 0
  private var in: InputStream = _
  private val row = new UnsafeRow(numFields)
  private val tuple = (0, row)

  override def hasNext: Boolean = pos < limit || refill()

  override def next(): (Int, UnsafeRow) = {
    if (!hasNext) throw new NoSuchElementException("No more rows")
    if (limit - pos < 4) contiguous(4)
    val raw = Platform.getInt(buffer, Platform.BYTE_ARRAY_OFFSET + pos)
    val size = if (SqlRowReader.BigEndian) raw else Integer.reverseBytes(raw)
    if (size < 0) throw new IOException(s"Corrupt SQL row stream: row length $size")
    if (limit - pos < 4 + size) contiguous(4 + size)
    row.pointTo(buffer, Platform.BYTE_ARRAY_OFFSET + pos + 4, size)
    pos += 4 + size
    tuple
  }

  /**
   * Whether more bytes came, into the other buffer (the current one may hold the row returned
   * last); moves to the next stream at the end of one.
   */
  private def refill(): Boolean = {
    while (true) {
      if (in == null) {
        if (!streams.hasNext) return false
        in = streams.next()
      }
      val n = in.read(other, 0, other.length)
      if (n > 0) {
        swap(0, n)
        if (n == buffer.length) grow()
        return true
      }
      in.close()
      in = null
    }
    false
  }

  /**
   * Makes `need` bytes from `pos` contiguous: the unread bytes move to the start of the other
   * buffer (grown if a row is larger) and more of the current stream is read after them.
   */
  private def contiguous(need: Int): Unit = {
    val have = limit - pos
    if (other.length < need) other = new Array[Byte](math.max(need, 2 * other.length))
    System.arraycopy(buffer, pos, other, 0, have)
    var filled = have
    while (filled < need) {
      val n = if (in == null) -1 else in.read(other, filled, other.length - filled)
      if (n < 0) {
        throw new EOFException(
          s"SQL row stream ends inside a row: $filled of at least $need bytes")
      }
      filled += n
    }
    swap(0, filled)
  }

  /**
   * A read filled a whole buffer, so the stream has more: the next read gets a larger one (the
   * row returned last keeps the array it points into).
   */
  private def grow(): Unit = {
    val size = math.min(SqlRowReader.MostBuffer, 2 * buffer.length)
    if (other.length < size) other = new Array[Byte](size)
  }

  private def swap(start: Int, end: Int): Unit = {
    val t = buffer
    buffer = other
    other = t
    pos = start
    limit = end
  }
}

private[kae] object SqlRowReader {

  /**
   * The two buffers' first size: a reduce task of a job with thousands of partitions reads a few
   * KB, and two buffers of a full block for each such task would be most of the heap it allocates
   * (docs/benchmarks/Partitions.md measures jobs of up to 20,000 partitions).
   */
  val FirstBuffer: Int = 4 * 1024

  /** The size full reads grow the buffers to; a row larger than this grows one further. */
  val MostBuffer: Int = 64 * 1024

  private val BigEndian = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.BIG_ENDIAN
}
