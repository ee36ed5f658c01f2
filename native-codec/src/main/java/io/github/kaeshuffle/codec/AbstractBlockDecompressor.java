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

/** The decompression twin of {@link AbstractBlockCompressor}. */
abstract class AbstractBlockDecompressor implements BlockDecompressor {
  protected final BlockCodec codec;
  private long calls;

  /**
   * Set once by close. Calls and close are synchronized (uncontended: one owner), so a context is
   * never freed while a native call uses it, even by a close from another thread.
   */
  private boolean closed;

  AbstractBlockDecompressor(BlockCodec codec) {
    this.codec = codec;
  }

  /**
   * Decompresses all of src into at most rawLength bytes of dst and returns how many it produced,
   * or throws; a block of another length than rawLength is diagnosed here, once for every codec.
   */
  protected abstract int doDecompress(
      Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
      throws CodecException;

  protected abstract void release();

  @Override
  public final int decompress(
      byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int rawLength)
      throws CodecException {
    ByteBuffers.checkFromIndexSize(srcOff, srcLen, src.length);
    ByteBuffers.checkFromIndexSize(dstOff, rawLength, dst.length);
    return run(src, srcOff, srcLen, dst, dstOff, rawLength);
  }

  @Override
  public final int decompress(ByteBuffer src, ByteBuffer dst, int rawLength) throws CodecException {
    if (rawLength < 0 || rawLength > dst.remaining()) {
      throw new IllegalArgumentException(
          "The destination has "
              + dst.remaining()
              + " bytes remaining; a block of raw length "
              + rawLength
              + " does not fit.");
    }
    BufferArgument in = BufferArgument.source(src);
    BufferArgument out = BufferArgument.destination(dst);
    run(in.target(), in.offset(), src.remaining(), out.target(), out.offset(), rawLength);
    src.position(src.limit());
    dst.position(dst.position() + rawLength);
    return rawLength;
  }

  private synchronized int run(
      Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength)
      throws CodecException {
    if (closed) {
      throw new IllegalStateException("This " + codec.name() + " decompressor is closed.");
    }
    if (srcLen == 0) {
      throw new CorruptBlockException(
          codec.name()
              + " cannot decompress an empty input to "
              + rawLength
              + " bytes: the block is truncated.");
    }
    int produced = doDecompress(src, srcOff, srcLen, dst, dstOff, rawLength);
    if (produced != rawLength) {
      throw new CorruptBlockException(
          codec.name()
              + " decompress failed: "
              + NativeError.LENGTH
              + ": the block decompresses to "
              + produced
              + " bytes, not "
              + rawLength
              + ".");
    }
    calls++;
    return rawLength;
  }

  @Override
  public final long calls() {
    return calls;
  }

  @Override
  public final synchronized void close() {
    if (!closed) {
      closed = true;
      release();
    }
  }
}
