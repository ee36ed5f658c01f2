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

/**
 * A deflate backend served by libkaeshuffle: the system zlib, a dlopen'ed zlib-compatible library
 * (KAEzip) or libdeflate. The backend handle lives for the process; each context owns one native
 * stream that is reset, not re-created, per block.
 */
final class NativeBlockCodec implements BlockCodec {

  /** KAEzip v2 submits input in requests of at most 1 MiB (KAEZlib/src/v2/kaezip_comp.c). */
  private static final int KAEZIP_MAX_REQUEST = 1 << 20;

  private final String name;
  private final long backend;
  private final int level;
  private final String description;

  NativeBlockCodec(String name, long backend, int level) {
    this.name = name;
    this.backend = backend;
    this.level = level;
    this.description = NativeLib.describe(backend);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean hardware() {
    return CodecKind.KAEZIP.id().equals(name);
  }

  @Override
  public int hardwareRequestBytes() {
    return hardware() ? KAEZIP_MAX_REQUEST : 0;
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
    return description;
  }

  @Override
  public int maxCompressedLength(int rawLength) {
    if (rawLength < 0) {
      throw new IllegalArgumentException("A block length cannot be negative: " + rawLength);
    }
    long bound = NativeLib.maxCompressedLength(backend, rawLength);
    if (bound < 0 || bound > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "A "
              + rawLength
              + "-byte block is too large for "
              + name
              + ": its compressed bound "
              + bound
              + " exceeds 2 GiB.");
    }
    return (int) bound;
  }

  @Override
  public BlockCompressor newCompressor() throws CodecException {
    long ctx = NativeLib.newCompressor(backend, level);
    if (ctx <= 0) {
      throw CodecException.ofNative(name, "creating a compressor at level " + level, ctx);
    }
    return new Compressor(this, ctx);
  }

  @Override
  public BlockDecompressor newDecompressor() throws CodecException {
    long ctx = NativeLib.newDecompressor(backend);
    if (ctx <= 0) {
      throw CodecException.ofNative(name, "creating a decompressor", ctx);
    }
    return new Decompressor(this, ctx);
  }

  @Override
  public String toString() {
    return name + " level " + level + " [" + description + "]";
  }

  /** Frees a native context once, from close() or, for a leaked context, from the Cleaner. */
  private static final class Release implements Runnable {
    private final long ctx;
    private final boolean compressor;

    Release(long ctx, boolean compressor) {
      this.ctx = ctx;
      this.compressor = compressor;
    }

    @Override
    public void run() {
      if (compressor) {
        NativeLib.freeCompressor(ctx);
      } else {
        NativeLib.freeDecompressor(ctx);
      }
    }
  }

  private static final class Compressor extends AbstractBlockCompressor {
    private final long ctx;
    private final NativeCleaner.Cleanable cleanable;

    Compressor(NativeBlockCodec codec, long ctx) {
      super(codec);
      this.ctx = ctx;
      this.cleanable = NativeCleaner.register(this, new Release(ctx, true));
    }

    @Override
    protected int doCompress(Object src, int srcOff, int srcLen, Object dst, int dstOff, int room)
        throws CodecException {
      int n = NativeLib.compress(ctx, src, srcOff, srcLen, dst, dstOff, room);
      if (n < 0) {
        throw CodecException.ofNative(codec.name(), "compress", n);
      }
      return n;
    }

    @Override
    protected void release() {
      cleanable.clean();
    }
  }

  private static final class Decompressor extends AbstractBlockDecompressor {
    private final long ctx;
    private final NativeCleaner.Cleanable cleanable;

    Decompressor(NativeBlockCodec codec, long ctx) {
      super(codec);
      this.ctx = ctx;
      this.cleanable = NativeCleaner.register(this, new Release(ctx, false));
    }

    @Override
    protected int doDecompress(
        Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
        throws CodecException {
      int n = NativeLib.decompress(ctx, src, srcOff, srcLen, dst, dstOff, rawLength);
      if (n < 0) {
        throw CodecException.ofNative(codec.name(), "decompress", n);
      }
      return n;
    }

    @Override
    protected void release() {
      cleanable.clean();
    }
  }
}
