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
package io.github.kaeshuffle.format;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The heap buffers of {@link FrameOutputStream}s and {@link SegmentWriter}s, a block and a frame
 * each, lent to one stream or segment at a time and kept for the next: Spark opens a codec stream
 * for every cached block, broadcast piece and task binary, and a map task writes a segment for
 * every partition, many of them a few KiB, and each would otherwise allocate a whole block and
 * frame. At most {@code maxIdle} pairs are kept, with no bound on those lent: more returned at once
 * are dropped to the collector, and more lent at once are made anew. Heap buffers need none of the
 * session bounds and closing of the codec pools ({@code io.github.kaeshuffle.pool}). Thread-safe.
 */
public final class FrameBufferPool {
  /** One stream's buffers: the block being filled and the frame it is encoded into. */
  static final class Buffers {
    final ByteBuffer block;
    final ByteBuffer frame;

    private Buffers(int blockSize, int frameLength) {
      this.block = ByteBuffer.allocate(blockSize);
      this.frame = ByteBuffer.allocate(frameLength);
    }
  }

  private final int blockSize;
  private final int maxIdle;
  private final Deque<Buffers> idle = new ArrayDeque<>();
  private long made;

  /**
   * @param blockSize raw bytes per frame ({@link BlockFormat#checkBlockSize})
   * @param maxIdle most pairs kept for reuse
   */
  public FrameBufferPool(int blockSize, int maxIdle) {
    BlockFormat.checkBlockSize(blockSize);
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle cannot be negative: " + maxIdle);
    }
    this.blockSize = blockSize;
    this.maxIdle = maxIdle;
  }

  /**
   * A pair kept from an earlier stream, emptied, or a new one; its frame holds at least {@code
   * frameLength} bytes (an encoder's {@link BlockEncoder#maxFrameLength} of a full block: a
   * software encoder lent for a busy hardware one may bound its frames otherwise).
   */
  Buffers borrow(int frameLength) {
    Buffers b = keptFor(frameLength);
    if (b != null) {
      return b;
    }
    synchronized (this) {
      made++;
    }
    return new Buffers(blockSize, frameLength); // not under the lock: a block is large
  }

  private synchronized Buffers keptFor(int frameLength) {
    Buffers b;
    while ((b = idle.pollFirst()) != null) {
      if (b.frame.capacity() >= frameLength) {
        b.block.clear();
        b.frame.clear();
        return b;
      }
      // too small for this encoder's frames: dropped
    }
    return null;
  }

  /** Keeps {@code b} for the next stream, unless {@code maxIdle} are kept already. */
  synchronized void giveBack(Buffers b) {
    if (idle.size() < maxIdle) {
      idle.addFirst(b);
    }
  }

  /** Pairs made since the pool was: at most the streams open at once, beyond the kept ones. */
  public synchronized long made() {
    return made;
  }

  int blockSize() {
    return blockSize;
  }
}
