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
package io.github.kaeshuffle.format;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * A compressing stream of frames (docs/block-format.md), for Spark's IO outside the shuffle: the
 * bytes written are collected into blocks of {@code blockSize}, and each full block, and the last
 * one at {@link #close}, becomes one frame with one codec call, stored raw where it does not
 * shrink. {@link #close} adds an end mark ({@link StreamEnd}) with the stream's raw length, so that
 * a stream cut short is an error rather than fewer bytes. Streams written one after the other read
 * back as one ({@link FrameInputStream}).
 *
 * <p>{@link #flush} passes on the frames already made but does not cut the block being filled:
 * callers that flush after every few records (a serializer, a {@code PrintWriter}) would otherwise
 * bring back a codec call per write, which is what this stream exists to avoid. Spark's lz4 codec
 * flushes the same way. Not thread-safe.
 */
public final class FrameOutputStream extends OutputStream {
  private final OutputStream out;
  private final BlockEncoder encoder;
  private final Consumer<BlockEncoder> release;
  private final FrameBufferPool pool;
  private final FrameBufferPool.Buffers buffers;
  private final ByteBuffer block;
  private final ByteBuffer frame;
  private long rawBytes;
  private boolean closed;

  /**
   * @param out where the frames go; closed with this stream
   * @param encoder encodes each block; handed to {@code release} once, at {@link #close}
   * @param blockSize raw bytes per frame, {@link BlockFormat#MIN_BLOCK_SIZE} to {@link
   *     BlockFormat#MAX_BLOCK_SIZE}
   */
  public FrameOutputStream(
      OutputStream out, BlockEncoder encoder, int blockSize, Consumer<BlockEncoder> release) {
    this(out, encoder, unpooled(blockSize), release);
  }

  /**
   * @param out where the frames go; closed with this stream
   * @param encoder encodes each block; handed to {@code release} once, at {@link #close}
   * @param pool lends the block and frame buffers, given back at {@link #close}
   */
  public FrameOutputStream(
      OutputStream out,
      BlockEncoder encoder,
      FrameBufferPool pool,
      Consumer<BlockEncoder> release) {
    this.out = out;
    this.encoder = encoder;
    this.release = release;
    this.pool = pool;
    this.buffers = pool.borrow(encoder.maxFrameLength(pool.blockSize()));
    this.block = buffers.block;
    this.frame = buffers.frame;
  }

  /** Buffers of the stream's own, never kept. */
  private static FrameBufferPool unpooled(int blockSize) {
    return new FrameBufferPool(blockSize, 0);
  }

  @Override
  public void write(int b) throws IOException {
    open();
    block.put((byte) b);
    if (!block.hasRemaining()) {
      writeFrame(block);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    open();
    if ((off | len) < 0 || len > b.length - off) {
      throw new IndexOutOfBoundsException("offset " + off + ", length " + len + ", " + b.length);
    }
    while (len > 0) {
      int n;
      if (block.position() == 0 && len >= block.capacity()) {
        n = block.capacity(); // a whole block in the caller's array: encoded from there
        writeFrame(ByteBuffer.wrap(b, off, n));
      } else {
        n = Math.min(len, block.remaining());
        block.put(b, off, n);
        if (!block.hasRemaining()) {
          writeFrame(block);
        }
      }
      off += n;
      len -= n;
    }
  }

  @Override
  public void flush() throws IOException {
    open();
    out.flush();
  }

  /**
   * Writes the last block's frame and the end mark, gives the encoder back and closes the stream
   * below.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (OutputStream below = out) {
      if (block.position() > 0) {
        writeFrame(block);
      }
      StreamEnd.write(frame.array(), rawBytes);
      below.write(frame.array(), 0, BlockFormat.STREAM_END_LENGTH);
      below.flush();
    } finally {
      try {
        release.accept(encoder);
      } finally {
        pool.giveBack(buffers);
      }
    }
  }

  /** Encodes {@code raw}'s bytes from 0 to its position as one frame and writes it. */
  private void writeFrame(ByteBuffer raw) throws IOException {
    if (raw == block) {
      raw.flip();
    }
    frame.clear();
    rawBytes += raw.remaining();
    encoder.encode(raw, frame);
    out.write(frame.array(), 0, frame.position());
    block.clear();
  }

  private void open() throws IOException {
    if (closed) {
      throw new IOException("The frame stream is closed.");
    }
  }
}
