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
import io.github.kaeshuffle.format.BlockEncoder;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a {@link PartitionedBlockBuffer}'s blocks become frames: the frame buffer each block is
 * encoded into with one codec call, and the assembly block where a block with bytes parked in the
 * frame file is put back together first, so that it too is compressed once, whole. Not thread-safe:
 * one task's thread.
 */
final class FrameMaker {
  private final BlockEncoder encoder;
  private final int blockSize;
  private final HeldMemory memory;

  /**
   * Where each frame is encoded before it is appended to the file: made for the first frame's need
   * and grown (at most to a full block's frame, reserved by the owner) as larger ones come. Most
   * tasks of a job with many small tasks encode a few hundred bytes, and a full block's frame made
   * up front for each of them is garbage the collector must chase (docs/design.md, "Block writer").
   */
  private ByteBuffer frame;

  /** Where a block with parked bytes is put back together: direct, one block, made when needed. */
  private ByteBuffer assembly;

  FrameMaker(BlockEncoder encoder, int blockSize, HeldMemory memory) {
    this.encoder = encoder;
    this.blockSize = blockSize;
    this.memory = memory;
  }

  /** The last frame encoded, from index 0. */
  ByteBuffer frame() {
    return frame;
  }

  /** Encodes {@code input} as p's next frame, into {@link #frame()}; returns its length. */
  int encode(RawBlock p, ByteBuffer input) throws IOException {
    int need = encoder.maxFrameLength(input.remaining());
    if (frame == null || frame.capacity() < need) {
      int most = encoder.maxFrameLength(blockSize);
      int grown = frame == null ? need : Math.max(need, frame.capacity() * 2);
      frame = ByteBuffer.allocate(Math.min(most, grown));
    }
    frame.clear();
    return p.index().encode(encoder, input, frame);
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

  /** p's whole block in the assembly block, readable: its parked bytes read back, then inMemory. */
  ByteBuffer assemble(FrameFile frames, RawBlock p, ByteBuffer inMemory) throws IOException {
    ByteBuffers.clear(assembly);
    frames.readParked(p.id, assembly);
    assembly.put(inMemory);
    p.parkedBytes = 0;
    return ByteBuffers.flip(assembly);
  }

  /** The frame buffer's size so far (0 before the first frame): for tests. */
  int frameCapacity() {
    return frame == null ? 0 : frame.capacity();
  }

  /** Frees the assembly block (its memory is given back by the owner). Idempotent. */
  void close() {
    DirectMemory.free(assembly);
    assembly = null;
  }
}
