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
package io.github.kaeshuffle.writer;

import io.github.kaeshuffle.codec.DirectMemory;
import io.github.kaeshuffle.format.BlockEncoder;

/**
 * The sizes a {@link PartitionedBlockBuffer}'s memory comes in: a partition's first buffer (its
 * chain's chunk), how far a chain may grow before the partition moves to one direct buffer, and
 * what the buffer takes before its first byte.
 */
public final class BufferSizes {
  private BufferSizes() {}

  /**
   * The most bytes a partition keeps in a chain of chunks: past it the partition moves to one
   * direct buffer, mapped from the kernel from this size up ({@link DirectMemory#MAP_THRESHOLD}),
   * and the gather block for chains is no larger.
   */
  static final int SMALL_MOST = DirectMemory.MAP_THRESHOLD;

  /** The first buffers of all partitions together, which decides the first size when many. */
  static final long FIRST_BUFFERS = 8L << 20;

  /**
   * A partition's first raw buffer, the chunk size of its chain: {@code largest}, or less when
   * there are so many partitions that {@code largest} each would pass {@link #FIRST_BUFFERS} (8
   * MiB), never under 512 bytes. A task's buffers then grow with its data instead of all taking 4
   * KiB with their first record, and a chain's last chunk, partly filled, wastes little: at many
   * thousands of partitions that lowers a job's peak direct memory (docs/benchmarks/Partitions.md).
   */
  public static int firstBuffer(int numPartitions, int largest) {
    long fair = Long.highestOneBit(Math.max(1, FIRST_BUFFERS / Math.max(1, numPartitions)));
    return (int) Math.min(largest, Math.max(512, fair));
  }

  /** The small chunks' size: the first buffer's (1 to blockSize bytes), at most SMALL_MOST. */
  static int chunkSize(int firstBuffer, int blockSize) {
    if (firstBuffer < 1 || firstBuffer > blockSize) {
      throw new IllegalArgumentException(
          "The first buffer size must be 1 to " + blockSize + " bytes, not " + firstBuffer + ".");
    }
    return Math.min(firstBuffer, SMALL_MOST);
  }

  /**
   * Bytes a chain of {@code chunk}-byte chunks may reach: whole chunks, at most the block and
   * SMALL_MOST.
   */
  static int smallLimit(int blockSize, int chunk) {
    return Math.min(blockSize, SMALL_MOST) / chunk * chunk;
  }

  /**
   * Memory a buffer takes before its first byte: one frame and the gather block (the rest is raw
   * buffers, as data comes).
   */
  static long workingMemory(BlockEncoder encoder, int blockSize, int firstBuffer) {
    int chunk = chunkSize(firstBuffer, blockSize);
    return encoder.maxFrameLength(blockSize) + (long) smallLimit(blockSize, chunk);
  }
}
