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
 * The small raw blocks of {@link RawBlocks}: each partition's chain of {@link RawChunks}, grown a
 * chunk at a time up to a limit, and the direct gather block a chain's bytes are copied into for
 * the codec, which then always reads memory the collector does not move. Not thread-safe: one
 * task's thread.
 */
final class ChunkChains {
  private final RawChunks chunks;
  private final HeldMemory memory;

  /** Bytes a chain may reach, a whole number of chunks. */
  private final int limit;

  /** Where a chain's bytes are gathered for the codec; made when first needed, within limit. */
  private ByteBuffer gather;

  /**
   * @param chunks where the chains' chunks come from
   * @param limit the most bytes of a chain, a whole number of chunks (reserved by the owner for the
   *     gather block)
   * @param memory where each new page of chunks is reserved
   */
  ChunkChains(RawChunks chunks, int limit, HeldMemory memory) {
    this.chunks = chunks;
    this.limit = limit;
    this.memory = memory;
  }

  /** Whether p's chain is as long as a chain may be: p's next byte needs a direct buffer. */
  boolean full(RawBlock p) {
    return p.chained == limit;
  }

  /**
   * Appends to p's chain up to {@code most} bytes (at least 1), a chunk added first when the last
   * is full; returns the bytes put, 0 when adding a chunk spilled instead (p is then empty).
   */
  int put(RawBlock p, byte[] bytes, int off, int most) throws IOException {
    int at = p.chained % chunks.chunkSize();
    if (at == 0 && !addChunk(p)) {
      return 0;
    }
    int n = Math.min(most, chunks.chunkSize() - at);
    chunks.put(p.tail, at, bytes, off, n);
    p.chained += n;
    return n;
  }

  /** Adds a chunk to p's chain, a new page first if all are taken; false when it spilled. */
  private boolean addChunk(RawBlock p) throws IOException {
    int id = chunks.take();
    if (id < 0) {
      if (!memory.reserve(chunks.nextPageBytes())) {
        return false;
      }
      chunks.addPage();
      id = chunks.take();
    }
    if (p.head < 0) {
      p.head = id;
    } else {
      chunks.link(p.tail, id);
    }
    p.tail = id;
    return true;
  }

  /** Copies p's chain into {@code dst}. */
  void copy(RawBlock p, ByteBuffer dst) {
    chunks.copyChain(p.head, p.chained, dst);
  }

  /** p's chain in the gather block, readable; the block made or grown (up to limit) as needed. */
  ByteBuffer gather(RawBlock p) {
    if (gather == null || gather.capacity() < p.chained) {
      DirectMemory.free(gather);
      int need = Math.max(chunks.chunkSize(), p.chained);
      int size = Integer.highestOneBit(need);
      gather = DirectMemory.allocate(Math.min(limit, size < need ? size * 2 : size));
    }
    ByteBuffers.clear(gather);
    copy(p, gather);
    return ByteBuffers.flip(gather);
  }

  /** Empties p's chain: its chunks go back to the free list. */
  void free(RawBlock p) {
    if (p.head >= 0) {
      chunks.freeChain(p.head, p.tail);
    }
    p.head = -1;
    p.tail = -1;
    p.chained = 0;
  }

  /** Frees every page of chunks (every chain with them); returns their bytes, to release. */
  long releaseAll() {
    return chunks.releaseAll();
  }

  /** Frees the gather block (reserved by the owner, who gives that memory back). Idempotent. */
  void close() {
    DirectMemory.free(gather);
    gather = null;
  }
}
