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
 * Checks arguments, reduces buffers to arrays or direct buffers and counts calls, so backends
 * implement one method. Targets passed on are a {@code byte[]} or a direct {@code ByteBuffer}.
 */
abstract class AbstractBlockCompressor implements BlockCompressor {
  protected final BlockCodec codec;
  private long calls;

  /**
   * Set once by close. Calls and close are synchronized (uncontended: one owner), so a context is
   * never freed while a native call uses it, even by a close from another thread.
   */
  private boolean closed;

  AbstractBlockCompressor(BlockCodec codec) {
    this.codec = codec;
  }

  /** Compresses one block; room is at least the codec's bound for srcLen. */
  protected abstract int doCompress(
      Object src, int srcOff, int srcLen, Object dst, int dstOff, int room) throws CodecException;

  protected abstract void release();

  @Override
  public final int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen)
      throws CodecException {
    ByteBuffers.checkFromIndexSize(srcOff, srcLen, src.length);
    ByteBuffers.checkFromIndexSize(dstOff, dstLen, dst.length);
    return run(src, srcOff, srcLen, dst, dstOff, dstLen);
  }

  @Override
  public final int compress(ByteBuffer src, ByteBuffer dst) throws CodecException {
    BufferArgument in = BufferArgument.source(src);
    BufferArgument out = BufferArgument.destination(dst);
    int n =
        run(in.target(), in.offset(), src.remaining(), out.target(), out.offset(), dst.remaining());
    src.position(src.limit());
    dst.position(dst.position() + n);
    return n;
  }

  private synchronized int run(Object src, int srcOff, int srcLen, Object dst, int dstOff, int room)
      throws CodecException {
    if (closed) {
      throw new IllegalStateException("This " + codec.name() + " compressor is closed.");
    }
    int bound = codec.maxCompressedLength(srcLen);
    if (room < bound) {
      throw new IllegalArgumentException(
          "The destination has "
              + room
              + " bytes of room, but a "
              + srcLen
              + "-byte block may compress to "
              + bound
              + " bytes with "
              + codec.name()
              + ": size it with maxCompressedLength.");
    }
    int n = doCompress(src, srcOff, srcLen, dst, dstOff, room);
    calls++;
    return n;
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
