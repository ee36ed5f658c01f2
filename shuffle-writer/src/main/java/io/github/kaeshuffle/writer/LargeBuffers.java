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
import io.github.kaeshuffle.codec.DirectMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The direct raw buffers of {@link RawBlocks}: those of the partitions that have outgrown their
 * chain of small chunks, and spare ones, kept for reuse, that no partition holds: together what
 * {@code spark.shuffle.kae.writer.largeBufferMemory} bounds. Without a bound a map task holds up to
 * partitions x blockSize of them, all at once when its partitions fill at the same pace, at the end
 * of the map stage, where the process's peak RSS is. With one, {@link #bufferFor} makes room by
 * unmapping a spare, else by giving up the buffer {@link #victim()} names: one holding no bytes as
 * it is, else the fullest, its bytes parked in the frame file first. A buffer given up becomes a
 * spare rather than being unmapped, so that at the bound buffers go round instead of being mapped
 * from the kernel and faulted in afresh each time, which costs CPU on every large map output
 * (docs/benchmarks/Partitions.md). Not thread-safe: one task's thread.
 */
final class LargeBuffers {
  /** Moves a partition's bytes in memory to the frame file; false when that spilled instead. */
  interface Park {
    boolean park(RawBlock p) throws IOException;
  }

  private final long limit;
  private final HeldMemory memory;

  private RawBlock[] members = new RawBlock[16];
  private int count;

  private ByteBuffer[] spares = new ByteBuffer[4];
  private int spareCount;

  /** Bytes of every large buffer mapped: the members' and the spares'. */
  private long bytes;

  /**
   * @param limit the most bytes of large buffers: 0 for no bound, else at least two blocks
   * @param memory where each buffer's bytes are reserved before it is mapped
   */
  LargeBuffers(long limit, int blockSize, HeldMemory memory) {
    if (limit != 0 && limit < 2L * blockSize) {
      throw new IllegalArgumentException(
          "The large buffers' bound must be 0 or at least two blocks ("
              + 2L * blockSize
              + " bytes), not "
              + limit
              + ".");
    }
    this.limit = limit;
    this.memory = memory;
  }

  private boolean bounded() {
    return limit > 0;
  }

  /** Whether a new buffer of {@code capacity} bytes fits under the bound. */
  private boolean fits(long capacity) {
    return limit == 0 || bytes + capacity <= limit;
  }

  /** Bytes of large buffers mapped now. */
  long bytes() {
    return bytes;
  }

  /**
   * A direct buffer of at least {@code capacity} bytes for p within the bound: a spare, else a new
   * one, room made first by unmapping a spare, else by giving up another partition's buffer (an
   * empty one as it is, a fuller one's bytes parked: raw, the block is compressed once, when full).
   * Null when p itself was the fullest and was parked instead, or when memory spilled (the caller
   * looks at p again).
   */
  ByteBuffer bufferFor(RawBlock p, int capacity, Park park) throws IOException {
    while (true) {
      ByteBuffer spare = takeSpare(capacity);
      if (spare != null) {
        return spare;
      }
      if (fits(capacity)) {
        return map(capacity);
      }
      if (unmapSpare()) {
        continue;
      }
      RawBlock v = victim();
      if (v == null || v == p || (v.rawLength() > 0 && v.rawLength() <= p.rawLength())) {
        park.park(p);
        return null;
      }
      if (v.rawLength() > 0 && !park.park(v)) {
        return null;
      }
      remove(v);
      retire(v.raw);
      v.raw = null;
    }
  }

  /** A new buffer of {@code capacity} bytes, reserved; null when reserving spilled. */
  private ByteBuffer map(int capacity) throws IOException {
    if (!memory.reserve(capacity)) {
      return null;
    }
    bytes += capacity;
    return DirectMemory.allocate(capacity);
  }

  /** Unmaps a buffer; returns its bytes, for the caller to release. */
  private int unmap(ByteBuffer b) {
    int capacity = b.capacity();
    bytes -= capacity;
    DirectMemory.free(b);
    return capacity;
  }

  /**
   * A buffer no partition holds any more: a spare under a bound, where buffers go round; unmapped
   * without one (nothing would take it back before the task ends).
   */
  void retire(ByteBuffer b) {
    if (bounded()) {
      addSpare(b);
    } else {
      memory.release(unmap(b));
    }
  }

  /** Unmaps one spare and gives its memory back; false when there is none. */
  private boolean unmapSpare() {
    ByteBuffer b = dropSpare();
    if (b == null) {
      return false;
    }
    memory.release(unmap(b));
    return true;
  }

  /**
   * Frees p's direct buffer, if it has one; returns its bytes, for the caller to release (a chain's
   * chunks are the pages', released with them).
   */
  long free(RawBlock p) {
    if (p.raw == null) {
      return 0;
    }
    remove(p);
    int freed = unmap(p.raw);
    p.raw = null;
    return freed;
  }

  /** Unmaps every spare; returns their bytes, for the caller to release. */
  long freeSpares() {
    long freed = 0;
    for (ByteBuffer b = dropSpare(); b != null; b = dropSpare()) {
      freed += unmap(b);
    }
    return freed;
  }

  /** p now holds a large buffer. */
  void add(RawBlock p) {
    if (count == members.length) {
      members = Arrays.copyOf(members, count * 2);
    }
    p.largeSlot = count;
    members[count++] = p;
  }

  /** p, a member, no longer holds its large buffer. */
  private void remove(RawBlock p) {
    RawBlock last = members[--count];
    members[p.largeSlot] = last;
    last.largeSlot = p.largeSlot;
    members[count] = null;
    p.largeSlot = -1;
  }

  /** Keeps a buffer no partition holds, for {@link #takeSpare}. */
  private void addSpare(ByteBuffer b) {
    if (spareCount == spares.length) {
      spares = Arrays.copyOf(spares, spareCount * 2);
    }
    spares[spareCount++] = b;
  }

  /** A spare of at least {@code capacity} bytes, emptied, or null. */
  private ByteBuffer takeSpare(int capacity) {
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

  /** Any spare, taken off the list, or null. */
  private ByteBuffer dropSpare() {
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
  private RawBlock victim() {
    RawBlock fullest = null;
    for (int i = 0; i < count; i++) {
      RawBlock p = members[i];
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
