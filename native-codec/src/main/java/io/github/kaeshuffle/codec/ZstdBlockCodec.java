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

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;

/** Zstandard blocks through zstd-jni (the jar Spark ships), one reused context per owner. */
final class ZstdBlockCodec implements BlockCodec {
  private final int level;

  ZstdBlockCodec(int level) {
    this.level = level;
  }

  @Override
  public String name() {
    return CodecKind.ZSTD.id();
  }

  @Override
  public CodecFormat format() {
    return CodecFormat.ZSTD;
  }

  @Override
  public int level() {
    return level;
  }

  @Override
  public String description() {
    return "zstd-jni (libzstd " + Zstd.class.getPackage().getImplementationVersion() + ")";
  }

  @Override
  public int maxCompressedLength(int rawLength) {
    if (rawLength < 0) {
      throw new IllegalArgumentException("A block length cannot be negative: " + rawLength);
    }
    long bound = Zstd.compressBound(rawLength);
    if (bound > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("A " + rawLength + "-byte block is too large.");
    }
    return (int) bound;
  }

  @Override
  public BlockCompressor newCompressor() {
    ZstdCompressCtx ctx = new ZstdCompressCtx();
    ctx.setLevel(level);
    StagingArrays staging = new StagingArrays();
    return new AbstractBlockCompressor(this) {
      @Override
      protected int doCompress(Object src, int srcOff, int srcLen, Object dst, int dstOff, int room)
          throws CodecException {
        try {
          if (src instanceof ByteBuffer && dst instanceof ByteBuffer) {
            return ctx.compressDirectByteBuffer(
                (ByteBuffer) dst, dstOff, room, (ByteBuffer) src, srcOff, srcLen);
          }
          if (dst instanceof byte[]) {
            byte[] s = staging.input(src, srcOff, srcLen);
            return ctx.compressByteArray(
                (byte[]) dst, dstOff, room, s, s == src ? srcOff : 0, srcLen);
          }
          byte[] out = staging.output(room);
          int n = ctx.compressByteArray(out, 0, room, (byte[]) src, srcOff, srcLen);
          BufferArgument.view(dst, dstOff, n).put(out, 0, n);
          return n;
        } catch (ZstdException e) {
          throw new CodecException("zstd compress failed: " + e.getMessage(), e);
        }
      }

      @Override
      protected void release() {
        ctx.close();
      }
    };
  }

  @Override
  public BlockDecompressor newDecompressor() {
    ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    StagingArrays staging = new StagingArrays();
    return new AbstractBlockDecompressor(this) {
      @Override
      protected int doDecompress(
          Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
          throws CodecException {
        int n;
        try {
          if (src instanceof ByteBuffer && dst instanceof ByteBuffer) {
            n =
                ctx.decompressDirectByteBuffer(
                    (ByteBuffer) dst, dstOff, rawLength, (ByteBuffer) src, srcOff, srcLen);
          } else if (dst instanceof byte[]) {
            byte[] s = staging.input(src, srcOff, srcLen);
            n =
                ctx.decompressByteArray(
                    (byte[]) dst, dstOff, rawLength, s, s == src ? srcOff : 0, srcLen);
          } else {
            byte[] out = staging.output(rawLength);
            n = ctx.decompressByteArray(out, 0, rawLength, (byte[]) src, srcOff, srcLen);
            BufferArgument.view(dst, dstOff, rawLength).put(out, 0, Math.max(0, n));
          }
        } catch (ZstdException e) {
          throw new CorruptBlockException("zstd decompress failed: " + e.getMessage(), e);
        }
        return n;
      }

      @Override
      protected void release() {
        ctx.close();
      }
    };
  }

  @Override
  public String toString() {
    return "zstd level " + level;
  }
}
