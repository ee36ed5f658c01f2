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

/**
 * The partitions' raw blocks of a {@link PartitionedBlockBuffer}, however each is backed: a chain
 * of small chunks while the block is small ({@link ChunkChains}), then one direct buffer that
 * doubles up to the block ({@link LargeBuffers}), and, when the large buffers' bound needs room,
 * the block's first bytes parked in the frame file. A block grows and parks here; its owner only
 * puts bytes and takes the block {@link #whole} once it is full, as one input for one codec call.
 * Every byte of memory is reserved first ({@link HeldMemory}); making room may spill, which its
 * owner does. Not thread-safe: one task's thread.
 */
final class RawBlocks {
  private final int blockSize;
  private final ChunkChains chains;
  private final LargeBuffers large;
  private final FrameFile frames;
  private final HeldMemory memory;
  private final BufferCounters counters;

  /** Where a block with parked bytes is put back together: direct, one block, made when needed. */
  private ByteBuffer assembly;

  /**
   * @param firstBuffer the chunk size of a small block's chain ({@link BufferSizes#chunkSize})
   * @param largeMemory the most bytes of direct buffers at once, 0 for no bound
   * @param frames where parked bytes go and come back from
   */
  RawBlocks(
      int blockSize,
      int firstBuffer,
      long largeMemory,
      boolean onHeap,
      FrameFile frames,
      HeldMemory memory,
      BufferCounters counters) {
    int chunk = BufferSizes.chunkSize(firstBuffer, blockSize);
    this.blockSize = blockSize;
    this.chains =
        new ChunkChains(
            new RawChunks(chunk, onHeap), BufferSizes.smallLimit(blockSize, chunk), memory);
    this.large = new LargeBuffers(largeMemory, blockSize, memory);
    this.frames = frames;
    this.memory = memory;
    this.counters = counters;
  }

  /**
   * Puts up to {@code len} bytes at the end of p's block, never past a full block; returns how
   * many, 0 when making room spilled instead (p is then empty and small: put again).
   */
  int put(RawBlock p, byte[] bytes, int off, int len) throws IOException {
    return p.raw == null ? putChained(p, bytes, off, len) : putRaw(p, bytes, off, len);
  }

  private int putChained(RawBlock p, byte[] bytes, int off, int len) throws IOException {
    if (chains.full(p)) {
      return toDirect(p) ? putRaw(p, bytes, off, len) : 0;
    }
    return chains.put(p, bytes, off, Math.min(len, blockSize - p.blockLength()));
  }

  private int putRaw(RawBlock p, byte[] bytes, int off, int len) throws IOException {
    if (!p.raw.hasRemaining() && !growRaw(p)) {
      return 0;
    }
    int n = Math.min(Math.min(len, p.raw.remaining()), blockSize - p.blockLength());
    p.raw.put(bytes, off, n);
    return n;
  }

  /**
   * Moves p's full chain into a direct buffer twice its size; false when making room parked p or
   * spilled.
   */
  private boolean toDirect(RawBlock p) throws IOException {
    ByteBuffer raw = large.bufferFor(p, Math.min(blockSize, p.chained * 2), this::park);
    if (raw == null) {
      return false;
    }
    chains.copy(p, raw);
    chains.free(p);
    p.raw = raw;
    large.add(p);
    return true;
  }

  /** Doubles p's full direct buffer; false when making room parked p or spilled. */
  private boolean growRaw(RawBlock p) throws IOException {
    ByteBuffer bigger = large.bufferFor(p, Math.min(blockSize, p.raw.capacity() * 2), this::park);
    if (bigger == null) {
      return false;
    }
    bigger.put(ByteBuffers.flip(p.raw));
    large.retire(p.raw);
    p.raw = bigger;
    return true;
  }

  /**
   * Moves p's bytes in memory to the frame file, after any it parked before; p keeps its buffer,
   * empty. False when reserving the assembly block spilled instead (p was then sealed).
   */
  private boolean park(RawBlock p) throws IOException {
    if (!readyToPark()) {
      return false;
    }
    int n = p.rawLength();
    frames.park(p.id, inMemory(p));
    p.parkedBytes += n;
    counters.parked(n);
    empty(p);
    return true;
  }

  /**
   * Makes sure the assembly block exists before the first bytes are parked; false when reserving it
   * spilled instead.
   */
  boolean readyToPark() throws IOException {
    if (assembly == null) {
      if (!memory.reserve(blockSize)) {
        return false;
      }
      assembly = DirectMemory.allocate(blockSize);
    }
    return true;
  }

  /**
   * p's whole block, readable until p is next touched: its parked bytes read back into the assembly
   * block before those in memory, or the bytes in memory alone when none are parked. Its owner
   * {@link #empty empties} p once the block is encoded.
   */
  ByteBuffer whole(RawBlock p) throws IOException {
    if (p.parkedBytes == 0) {
      return inMemory(p);
    }
    ByteBuffers.clear(assembly);
    frames.readParked(p.id, assembly);
    assembly.put(inMemory(p));
    p.parkedBytes = 0;
    return ByteBuffers.flip(assembly);
  }

  /** p's bytes in memory, readable: a view of its direct buffer, or its chain gathered. */
  private ByteBuffer inMemory(RawBlock p) {
    return p.raw != null ? ByteBuffers.flip(p.raw.duplicate()) : chains.gather(p);
  }

  /** Empties p's bytes in memory (a chain's chunks go back to the free list). */
  void empty(RawBlock p) {
    if (p.raw != null) {
      ByteBuffers.clear(p.raw);
    } else {
      chains.free(p);
    }
  }

  /** Gives up p's direct buffer, if any; returns the bytes the owner may release. */
  long free(RawBlock p) {
    return large.free(p);
  }

  /** Frees every chain's chunks and the spare direct buffers; returns the bytes to release. */
  long freeChainsAndSpares() {
    return chains.releaseAll() + large.freeSpares();
  }

  /** Bytes of direct raw buffers held now: for tests. */
  long largeBytes() {
    return large.bytes();
  }

  /**
   * Frees what is left once every partition's direct buffer is given up: the chains, the spares,
   * the assembly block (the owner gives their memory back). Idempotent.
   */
  void close() {
    chains.releaseAll();
    chains.close();
    large.freeSpares();
    DirectMemory.free(assembly);
    assembly = null;
  }
}
