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

import io.github.kaeshuffle.format.BlockEncoder;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a {@link PartitionedBlockBuffer}'s blocks become frames: the frame buffer each whole block
 * is encoded into with one codec call. Not thread-safe: one task's thread.
 */
final class FrameMaker {
  private final BlockEncoder encoder;
  private final int blockSize;

  /**
   * Where each frame is encoded before it is appended to the file: made for the first frame's need
   * and grown (at most to a full block's frame, reserved by the owner) as larger ones come. Most
   * tasks of a job with many small tasks encode a few hundred bytes, and a full block's frame made
   * up front for each of them is garbage the collector must chase (docs/design.md, "Block writer").
   */
  private ByteBuffer frame;

  FrameMaker(BlockEncoder encoder, int blockSize) {
    this.encoder = encoder;
    this.blockSize = blockSize;
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

  /** The frame buffer's size so far (0 before the first frame): for tests. */
  int frameCapacity() {
    return frame == null ? 0 : frame.capacity();
  }
}
