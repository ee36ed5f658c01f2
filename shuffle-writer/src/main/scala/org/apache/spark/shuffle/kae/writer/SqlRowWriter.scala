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

import io.github.kaeshuffle.writer.PartitionedBlockBuffer

import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.unsafe.Platform
import org.apache.spark.util.AccumulatorV2

/**
 * Writes Spark SQL's rows into their partitions' block buffers in the format of Spark's
 * `UnsafeRowSerializer` streams (per row a 4-byte big-endian length, then the row's bytes), the
 * bytes that serializer would write, without its streams: no `BufferedOutputStream` and
 * `DataOutputStream` per partition (four synchronized one-byte writes for each length, and a copy
 * of every row into the stream's buffer before it reaches ours).
 *
 * @param dataSize the exchange's "data size" metric, which the serializer adds each row's size
 *     to (null when the serializer has none)
 */
private[kae] final class SqlRowWriter(dataSize: AccumulatorV2[Long, Long]) {
  private val length = new Array[Byte](4)
  private var offHeap = new Array[Byte](0)

  def write(row: UnsafeRow, partition: Int, buffer: PartitionedBlockBuffer): Unit = {
    val size = row.getSizeInBytes
    if (dataSize != null) dataSize.add(size.toLong)
    length(0) = (size >>> 24).toByte
    length(1) = (size >>> 16).toByte
    length(2) = (size >>> 8).toByte
    length(3) = size.toByte
    buffer.append(partition, length, 0, 4)
    row.getBaseObject match {
      case bytes: Array[Byte] =>
        buffer.append(
          partition,
          bytes,
          (row.getBaseOffset - Platform.BYTE_ARRAY_OFFSET).toInt,
          size)
      case base =>
        if (offHeap.length < size) offHeap = new Array[Byte](size)
        Platform.copyMemory(base, row.getBaseOffset, offHeap, Platform.BYTE_ARRAY_OFFSET, size)
        buffer.append(partition, offHeap, 0, size)
    }
  }
}
