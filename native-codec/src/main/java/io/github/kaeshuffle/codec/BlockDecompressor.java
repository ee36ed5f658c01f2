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
 * Decompresses whole blocks whose raw length is known in advance. The output is bounded by that
 * length: input that would decompress to more or fewer bytes, carries trailing bytes, or is not a
 * valid stream raises {@link CorruptBlockException}. Not thread-safe; reuse, then close.
 */
public interface BlockDecompressor extends AutoCloseable {
  /**
   * Decompresses all of {@code src[srcOff, srcOff + srcLen)} into exactly {@code rawLength} bytes
   * of {@code dst} at {@code dstOff}; returns {@code rawLength}.
   */
  int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
      throws CodecException;

  /**
   * Decompresses all remaining bytes of {@code src} into exactly {@code rawLength} bytes of {@code
   * dst} from its position. Advances both positions on success; returns {@code rawLength}.
   */
  int decompress(ByteBuffer src, ByteBuffer dst, int rawLength) throws CodecException;

  long calls();

  @Override
  void close();
}
