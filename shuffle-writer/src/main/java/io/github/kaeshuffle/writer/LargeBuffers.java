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

import io.github.kaeshuffle.codec.ByteBuffers;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The direct raw buffers of a {@link PartitionedBlockBuffer}: those of the partitions that have
 * outgrown their chain of small chunks, and spare ones, kept for reuse, that no partition holds:
 * together what {@code spark.shuffle.kae.writer.largeBufferMemory} bounds. Without a bound a map
 * task holds up to partitions x blockSize of them, all at once when its partitions fill at the same
 * pace (issue 22: 200 partitions, two tasks, 100 MiB of direct memory at the end of the map stage,
 * where the process's peak RSS was). With one, the owner makes room by unmapping a spare, else by
 * giving up the buffer {@link #victim()} names: one holding no bytes as it is, else the fullest,
 * its bytes parked in the frame file first. A buffer given up becomes a spare rather than being
 * unmapped, so that at the bound buffers go round instead of being mapped from the kernel and
 * faulted in afresh each time (a first cut that unmapped them took 12% more CPU on a map output of
 * 190 MiB per task). Not thread-safe: one task's thread.
 */
final class LargeBuffers {
  private final long limit;

  private PartitionedBlockBuffer.Partition[] members = new PartitionedBlockBuffer.Partition[16];
  private int count;

  private ByteBuffer[] spares = new ByteBuffer[4];
  private int spareCount;

  /** Bytes of every large buffer mapped: the members' and the spares'. */
  private long bytes;

  /**
   * @param limit the most bytes of large buffers, 0 for no bound
   */
  LargeBuffers(long limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("The large buffers' bound cannot be negative: " + limit);
    }
    this.limit = limit;
  }

  boolean bounded() {
    return limit > 0;
  }

  /** Whether a new buffer of {@code capacity} bytes fits under the bound. */
  boolean fits(long capacity) {
    return limit == 0 || bytes + capacity <= limit;
  }

  /** Bytes of large buffers mapped now. */
  long bytes() {
    return bytes;
  }

  void mapped(int capacity) {
    bytes += capacity;
  }

  void unmapped(int capacity) {
    bytes -= capacity;
  }

  /** p now holds a large buffer. */
  void add(PartitionedBlockBuffer.Partition p) {
    if (count == members.length) {
      members = Arrays.copyOf(members, count * 2);
    }
    p.largeSlot = count;
    members[count++] = p;
  }

  /** p, a member, no longer holds its large buffer. */
  void remove(PartitionedBlockBuffer.Partition p) {
    PartitionedBlockBuffer.Partition last = members[--count];
    members[p.largeSlot] = last;
    last.largeSlot = p.largeSlot;
    members[count] = null;
    p.largeSlot = -1;
  }

  /** Keeps a buffer no partition holds, for {@link #takeSpare}. */
  void addSpare(ByteBuffer b) {
    if (spareCount == spares.length) {
      spares = Arrays.copyOf(spares, spareCount * 2);
    }
    spares[spareCount++] = b;
  }

  /** A spare of at least {@code capacity} bytes, emptied, or null. */
  ByteBuffer takeSpare(int capacity) {
    for (int i = 0; i < spareCount; i++) {
      if (spares[i].capacity() >= capacity) {
        ByteBuffer b = spares[i];
        spares[i] = spares[--spareCount];
        spares[spareCount] = null;
        return ByteBuffers.clear(b);
      }
    }
    return null;
  }

  /** Any spare, for the owner to unmap, or null. */
  ByteBuffer dropSpare() {
    if (spareCount == 0) {
      return null;
    }
    ByteBuffer b = spares[--spareCount];
    spares[spareCount] = null;
    return b;
  }

  /**
   * The member whose buffer to give up first: one holding no bytes (giving it up costs nothing),
   * else the fullest (parking it frees the most); null when there are none. A scan: with a bound
   * the members are at most the bound over 128 KiB, and each room made is at least 64 KiB of data.
   */
  PartitionedBlockBuffer.Partition victim() {
    PartitionedBlockBuffer.Partition fullest = null;
    for (int i = 0; i < count; i++) {
      PartitionedBlockBuffer.Partition p = members[i];
      if (p.rawLength() == 0) {
        return p;
      }
      if (fullest == null || p.rawLength() > fullest.rawLength()) {
        fullest = p;
      }
    }
    return fullest;
  }
}
