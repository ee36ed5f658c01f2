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

import io.github.kaeshuffle.format.SegmentIndexBuilder;
import java.nio.ByteBuffer;

/**
 * One partition's raw block in {@link RawBlocks}: a chain of {@link RawChunks} while small, then
 * one direct buffer, after any bytes of the block parked in the frame file. Empty after each frame
 * made from it. Not thread-safe: one task's thread.
 */
final class RawBlock {
  final int id;

  /** The block once past the chain limit, position = its bytes so far; null while small. */
  ByteBuffer raw;

  /** Where {@link LargeBuffers} keeps it while it has a direct buffer; -1 otherwise. */
  int largeSlot = -1;

  /** The chain's first and last chunk; -1 when it has none. */
  int head = -1;

  int tail = -1;

  /** Bytes in the chain. */
  int chained;

  /** The block's first bytes, parked in the frame file; 0 if none. */
  int parkedBytes;

  /**
   * Every frame written so far, in order: the segment's index; null before the first frame. Made
   * then because a map task's partitions live as long as the task, so the collector promotes them
   * to the old generation, where what dies with the task is garbage that G1's mixed collections
   * chase (20,000 of them per task at 20,000 partitions).
   */
  private SegmentIndexBuilder index;

  RawBlock(int id) {
    this.id = id;
  }

  /** The block's bytes in memory. */
  int rawLength() {
    return raw == null ? chained : raw.position();
  }

  /** The block's bytes so far: parked and in memory. */
  int blockLength() {
    return parkedBytes + rawLength();
  }

  /** Frames written so far. */
  int blockCount() {
    return index == null ? 0 : index.blockCount();
  }

  SegmentIndexBuilder index() {
    if (index == null) {
      index = new SegmentIndexBuilder();
    }
    return index;
  }

  /** Whether the partition has nothing to write: no frame and no byte. */
  boolean isEmpty() {
    return blockCount() == 0 && blockLength() == 0;
  }
}
