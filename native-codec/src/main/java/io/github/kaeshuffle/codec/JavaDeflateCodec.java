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

import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Deflate through {@code java.util.zip}, writing the same zlib format as the native backends: the
 * codec that serves when the native library cannot load, and a reference in tests.
 */
final class JavaDeflateCodec implements BlockCodec {
  private final int level;

  JavaDeflateCodec(int level) {
    this.level = level;
  }

  @Override
  public String name() {
    return CodecKind.JAVA.id();
  }

  @Override
  public CodecFormat format() {
    return CodecFormat.DEFLATE;
  }

  @Override
  public int level() {
    return level;
  }

  @Override
  public String description() {
    return "java.util.zip (pure Java)";
  }

  /** zlib's compressBound: java.util.zip runs zlib's deflate, whose worst case this bounds. */
  @Override
  public int maxCompressedLength(int rawLength) {
    if (rawLength < 0) {
      throw new IllegalArgumentException("A block length cannot be negative: " + rawLength);
    }
    long n = rawLength;
    long bound = n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
    if (bound > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("A " + rawLength + "-byte block is too large.");
    }
    return (int) bound;
  }

  @Override
  public BlockCompressor newCompressor() {
    return new JavaCompressor();
  }

  @Override
  public BlockDecompressor newDecompressor() {
    return new JavaDecompressor();
  }

  private final class JavaCompressor extends AbstractBlockCompressor {
    private final Deflater deflater = new Deflater(level, false);
    private final StagingArrays staging = new StagingArrays();

    JavaCompressor() {
      super(JavaDeflateCodec.this);
    }

    @Override
    protected int doCompress(Object src, int srcOff, int srcLen, Object dst, int dstOff, int room)
        throws CodecException {
      deflater.reset();
      // Arrays, not buffers: Deflater takes ByteBuffers only from Java 11, and the Spark 3.5
      // jars run on Java 8. A direct buffer goes through a staging array (this is the fallback
      // codec).
      byte[] in = staging.input(src, srcOff, srcLen);
      deflater.setInput(in, in == src ? srcOff : 0, srcLen);
      deflater.finish();
      byte[] out = dst instanceof byte[] ? (byte[]) dst : staging.output(room);
      int at = out == dst ? dstOff : 0;
      int n = 0;
      while (!deflater.finished() && n < room) {
        n += deflater.deflate(out, at + n, room - n);
      }
      if (!deflater.finished()) {
        throw CodecException.ofNative(name(), "compress", NativeError.DST_TOO_SMALL.code());
      }
      if (out != dst) {
        BufferArgument.view(dst, dstOff, n).put(out, 0, n);
      }
      return n;
    }

    @Override
    protected void release() {
      deflater.end();
    }
  }

  private final class JavaDecompressor extends AbstractBlockDecompressor {
    private final Inflater inflater = new Inflater(false);
    private final byte[] probe = new byte[1];
    private final StagingArrays staging = new StagingArrays();

    JavaDecompressor() {
      super(JavaDeflateCodec.this);
    }

    @Override
    protected int doDecompress(
        Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
        throws CodecException {
      inflater.reset();
      byte[] in = staging.input(src, srcOff, srcLen);
      inflater.setInput(in, in == src ? srcOff : 0, srcLen);
      byte[] out = dst instanceof byte[] ? (byte[]) dst : staging.output(rawLength);
      int at = out == dst ? dstOff : 0;
      int produced = inflate(out, at, rawLength);
      if (!inflater.finished()) {
        throw corrupt(NativeError.CORRUPT, "ends before its deflate stream does");
      }
      if (inflater.getRemaining() != 0) {
        throw corrupt(
            NativeError.TRAILING, "has " + inflater.getRemaining() + " bytes after its end");
      }
      if (out != dst) {
        BufferArgument.view(dst, dstOff, rawLength).put(out, 0, produced);
      }
      return produced;
    }

    /** Inflates into at most `rawLength` bytes of `out` from `at`; returns how many. */
    private int inflate(byte[] out, int at, int rawLength) throws CorruptBlockException {
      int produced = 0;
      try {
        while (!inflater.finished() && produced < rawLength) {
          int n = inflater.inflate(out, at + produced, rawLength - produced);
          produced += n;
          if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
            break;
          }
        }
        if (!inflater.finished() && produced == rawLength && !inflater.needsInput()) {
          // The output room is exactly rawLength: one probe byte tells a longer block from one
          // whose end (the adler32 trailer) is still to be read.
          if (inflater.inflate(probe) > 0) {
            throw corrupt(NativeError.LENGTH, "decompresses to more than " + rawLength + " bytes");
          }
        }
      } catch (DataFormatException e) {
        throw new CorruptBlockException(name() + " decompress failed: " + e.getMessage(), e);
      }
      return produced;
    }

    private CorruptBlockException corrupt(NativeError error, String what) {
      return new CorruptBlockException(
          name() + " decompress failed: " + error + ": the block " + what + ".");
    }

    @Override
    protected void release() {
      inflater.end();
    }
  }

  @Override
  public String toString() {
    return "java level " + level;
  }
}
