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
package io.github.kaeshuffle.codec;

import java.nio.ByteBuffer;

/**
 * Compresses whole blocks with one codec call each. Not thread-safe: one owner, reused across
 * blocks (the codec's state is reset, never re-created, per block), closed when done.
 */
public interface BlockCompressor extends AutoCloseable {
  /**
   * Compresses {@code src[srcOff, srcOff + srcLen)} into {@code dst} at {@code dstOff}, which must
   * have room for {@link BlockCodec#maxCompressedLength}; returns the compressed length.
   */
  int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen)
      throws CodecException;

  /**
   * Compresses the remaining bytes of {@code src} into {@code dst} from its position; {@code dst}
   * must have {@link BlockCodec#maxCompressedLength} bytes remaining. Heap or direct buffers, in
   * any mix. Advances both positions; returns the compressed length.
   */
  int compress(ByteBuffer src, ByteBuffer dst) throws CodecException;

  /** Blocks compressed so far by this context: one per call. */
  long calls();

  @Override
  void close();
}
