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

import java.io.{ByteArrayOutputStream, OutputStream}
import java.nio.ByteBuffer
import java.nio.file.Files

import io.github.kaeshuffle.format.{BlockDecoder, BlockEncoder, SegmentInputStream}
import io.github.kaeshuffle.writer.{MemoryBudget, PartitionedBlockBuffer, PartitionStreams}
import org.junit.jupiter.api.Test

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{UnsafeProjection, UnsafeRow}
import org.apache.spark.sql.types.{LongType, StringType, StructField, StructType}
import org.apache.spark.unsafe.Platform
import org.apache.spark.unsafe.types.UTF8String
import org.apache.spark.util.AccumulatorV2

/**
 * Spark SQL's rows go into their partition's blocks as their serializer writes them (a 4-byte
 * big-endian length, then the row's bytes), whether the row lies in a byte array, at an offset
 * in one, or off the heap; the SQL data size metric counts the rows' bytes.
 */
class SqlRowWriterTest {
  private val schema =
    StructType(Seq(StructField("id", LongType), StructField("name", StringType)))

  private def row(id: Long, name: String): UnsafeRow =
    UnsafeProjection.create(schema).apply(InternalRow(id, UTF8String.fromString(name))).copy()

  /** What Spark's UnsafeRowSerializer writes for `row`. */
  private def serialized(row: UnsafeRow): Array[Byte] =
    ByteBuffer.allocate(4 + row.getSizeInBytes).putInt(row.getSizeInBytes).put(row.getBytes)
      .array()

  /** The SQL metric's shape: a sum of longs. */
  private final class Sum extends AccumulatorV2[Long, Long] {
    private var sum = 0L
    override def isZero: Boolean = sum == 0L
    override def copy(): AccumulatorV2[Long, Long] = new Sum
    override def reset(): Unit = sum = 0L
    override def add(v: Long): Unit = sum += v
    override def merge(other: AccumulatorV2[Long, Long]): Unit = sum += other.value
    override def value: Long = sum
  }

  /** Runs `rows` against a block buffer of `partitions`; returns each partition's raw bytes. */
  private def written(partitions: Int)(rows: PartitionedBlockBuffer => Unit): Seq[Array[Byte]] = {
    val dir = Files.createTempDirectory("sql-rows")
    val budget = new MemoryBudget {
      override def acquire(bytes: Long): Long = bytes
      override def release(bytes: Long): Unit = ()
    }
    val encoder = new BlockEncoder(MapTaskFixture.Lz4)
    val buffer = new PartitionedBlockBuffer(
      partitions,
      16 * 1024,
      encoder,
      budget,
      () => Files.createTempFile(dir, "spill", ""))
    val segments = Array.fill(partitions)(new ByteArrayOutputStream)
    try {
      rows(buffer)
      buffer.writeTo(new PartitionStreams {
        override def open(partition: Int): OutputStream = segments(partition)
        override def close(partition: Int, stream: OutputStream): Unit = ()
      })
    } finally {
      buffer.close()
      encoder.close()
    }
    val decoder = new BlockDecoder(null)
    try segments.toSeq.map { s =>
        if (s.size == 0) Array.emptyByteArray
        else new SegmentInputStream(ByteBuffer.wrap(s.toByteArray), decoder).readAllBytes()
      }
    finally decoder.close()
  }

  @Test def aRowOnTheHeapOrOffItIsItsLengthThenItsBytes(): Unit = {
    val onHeap = row(1L, "kunpeng")
    val size = onHeap.getSizeInBytes
    val address = Platform.allocateMemory(size)
    try {
      Platform.copyMemory(onHeap.getBaseObject, onHeap.getBaseOffset, null, address, size)
      val offHeap = new UnsafeRow(2)
      offHeap.pointTo(null, address, size)
      val dataSize = new Sum
      val writer = new SqlRowWriter(dataSize)
      val bytes = written(2) { buffer =>
        writer.write(onHeap, 0, buffer)
        writer.write(offHeap, 1, buffer)
      }
      assert(bytes(0).sameElements(serialized(onHeap)))
      assert(bytes(1).sameElements(serialized(onHeap)), "the off-heap row's bytes")
      assert(dataSize.value == 2L * size)
    } finally Platform.freeMemory(address)
  }

  @Test def aRowAtAnOffsetInAnArrayIsCopiedFromThere(): Unit = {
    val first = row(2L, "first")
    val second = row(3L, "second row")
    // Two rows back to back in one array, as rows of a batch lie; the second at an offset.
    val both = first.getBytes ++ second.getBytes
    val atOffset = new UnsafeRow(2)
    atOffset.pointTo(
      both,
      Platform.BYTE_ARRAY_OFFSET + first.getSizeInBytes,
      second.getSizeInBytes)
    val bytes = written(1)(buffer => new SqlRowWriter(new Sum).write(atOffset, 0, buffer))
    assert(bytes(0).sameElements(serialized(second)))
  }

  @Test def withoutTheDataSizeMetricRowsAreWrittenAllTheSame(): Unit = {
    val rows = (0 until 5000).map(i => row(i.toLong, "name " * (i % 7)))
    val writer = new SqlRowWriter(null)
    val bytes =
      written(3)(buffer => rows.foreach(r => writer.write(r, r.getLong(0).toInt % 3, buffer)))
    for (p <- 0 until 3) {
      val expected = rows.filter(_.getLong(0) % 3 == p).flatMap(r => serialized(r).toSeq)
      assert(bytes(p).toSeq == expected, s"partition $p, across blocks of 16 KiB")
    }
  }
}
