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
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** LZ4 blocks through lz4-java (the jar Spark ships); only its bounds-checked decoder is used. */
final class Lz4BlockCodec implements BlockCodec {
  private final LZ4Factory factory = LZ4Factory.fastestInstance();
  private final LZ4Compressor compressor = factory.fastCompressor();
  private final LZ4SafeDecompressor decompressor = factory.safeDecompressor();

  @Override
  public String name() {
    return CodecKind.LZ4.id();
  }

  @Override
  public CodecFormat format() {
    return CodecFormat.LZ4;
  }

  @Override
  public int level() {
    return 1;
  }

  @Override
  public String description() {
    return "lz4-java " + factory;
  }

  @Override
  public int maxCompressedLength(int rawLength) {
    if (rawLength < 0) {
      throw new IllegalArgumentException("A block length cannot be negative: " + rawLength);
    }
    return compressor.maxCompressedLength(rawLength);
  }

  @Override
  public BlockCompressor newCompressor() {
    return new AbstractBlockCompressor(this) {
      @Override
      protected int doCompress(Object src, int srcOff, int srcLen, Object dst, int dstOff, int room)
          throws CodecException {
        ByteBuffer in = BufferArgument.view(src, srcOff, srcLen);
        ByteBuffer out = BufferArgument.view(dst, dstOff, room);
        try {
          return compressor.compress(in, srcOff, srcLen, out, dstOff, room);
        } catch (LZ4Exception e) {
          throw new CodecException("lz4 compress failed: " + e.getMessage(), e);
        }
      }

      @Override
      protected void release() {}
    };
  }

  @Override
  public BlockDecompressor newDecompressor() {
    return new AbstractBlockDecompressor(this) {
      @Override
      protected int doDecompress(
          Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
          throws CodecException {
        ByteBuffer in = BufferArgument.view(src, srcOff, srcLen);
        ByteBuffer out = BufferArgument.view(dst, dstOff, rawLength);
        int n;
        try {
          n = decompressor.decompress(in, srcOff, srcLen, out, dstOff, rawLength);
        } catch (LZ4Exception | IndexOutOfBoundsException e) {
          throw new CorruptBlockException("lz4 decompress failed: " + e.getMessage(), e);
        }
        return n;
      }

      @Override
      protected void release() {}
    };
  }

  @Override
  public String toString() {
    return "lz4";
  }
}
