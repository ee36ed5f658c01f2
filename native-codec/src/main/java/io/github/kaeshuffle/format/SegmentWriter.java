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

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Turns a stream of bytes into one segment: the bytes are cut into blocks of exactly {@code
 * blockSize} raw bytes (the last may be shorter), each block is encoded with one codec call and
 * written as a frame, and {@link #finish()} appends the block index. Writing nothing produces
 * nothing: an empty segment takes zero bytes. Not thread-safe.
 *
 * <p>The encoder is borrowed: closing this writer does not close it, nor the sink.
 */
public final class SegmentWriter extends OutputStream {
  private final BlockEncoder encoder;
  private final OutputStream sink;
  private final FrameBufferPool pool;
  private final FrameBufferPool.Buffers buffers;
  private final ByteBuffer block;
  private final ByteBuffer frame;
  private final SegmentIndexBuilder index = new SegmentIndexBuilder();
  private long bytesWritten;
  private boolean finished;

  /** The first failure: the segment is broken and every later call says so, never succeeds. */
  private Exception failed;

  public SegmentWriter(BlockEncoder encoder, int blockSize, OutputStream sink) {
    this(encoder, new FrameBufferPool(blockSize, 0), sink);
  }

  /**
   * A segment whose block and frame buffers {@code pool} lends, given back once the segment is
   * finished: a map task writes one segment per partition, often a few KiB each, and buffers of a
   * whole block of each segment's own would cost it more than its bytes.
   */
  public SegmentWriter(BlockEncoder encoder, FrameBufferPool pool, OutputStream sink) {
    this.encoder = encoder;
    this.sink = sink;
    this.pool = pool;
    this.buffers = pool.borrow(encoder.maxFrameLength(pool.blockSize()));
    this.block = buffers.block;
    this.frame = buffers.frame;
  }

  @Override
  public void write(int b) throws IOException {
    checkOpen();
    block.put((byte) b);
    if (!block.hasRemaining()) {
      flushBlock();
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ByteBuffers.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      // Serializers flush empty buffers into a stream they close (Kryo's Output does): harmless
      // after finish(), but never hides an earlier failure.
      checkNotFailed();
      return;
    }
    checkOpen();
    while (len > 0) {
      int n = Math.min(len, block.remaining());
      block.put(b, off, n);
      off += n;
      len -= n;
      if (!block.hasRemaining()) {
        flushBlock();
      }
    }
  }

  /** Writes the remaining bytes of {@code src}. */
  public void write(ByteBuffer src) throws IOException {
    checkOpen();
    while (src.hasRemaining()) {
      int n = Math.min(src.remaining(), block.remaining());
      ByteBuffers.putAt(block, block.position(), src, src.position(), n);
      block.position(block.position() + n);
      src.position(src.position() + n);
      if (!block.hasRemaining()) {
        flushBlock();
      }
    }
  }

  private void checkOpen() throws IOException {
    checkNotFailed();
    if (finished) {
      throw new IllegalStateException("This segment is finished; start a new SegmentWriter.");
    }
  }

  private void checkNotFailed() throws IOException {
    if (failed != null) {
      throw new IOException("An earlier write of this segment failed; it is incomplete", failed);
    }
  }

  private void flushBlock() throws IOException {
    try {
      encodeBlock();
    } catch (IOException | RuntimeException e) {
      failed = e;
      throw e;
    }
  }

  private void encodeBlock() throws IOException {
    block.flip();
    frame.clear();
    int length = index.encode(encoder, block, frame);
    sink.write(frame.array(), frame.arrayOffset(), length);
    bytesWritten += length;
    block.clear();
  }

  /**
   * Encodes the last partial block and writes the index; returns the segment's length in bytes (0
   * when nothing was written). Idempotent once it succeeded; after any failure (here or in an
   * earlier write) it throws again, so a caller that retries - or a serializer that swallows the
   * first exception when it closes its stream - can never take a broken segment for a whole one.
   * Does not flush or close the sink.
   */
  public long finish() throws IOException {
    checkNotFailed();
    if (!finished) {
      try {
        if (block.position() > 0) {
          encodeBlock();
        }
        bytesWritten += index.writeIndex(sink);
      } catch (IOException | RuntimeException e) {
        failed = e;
        throw e;
      }
      finished = true;
      // Nothing touches the buffers once finished: a broken segment's are dropped instead.
      pool.giveBack(buffers);
    }
    return bytesWritten;
  }

  /** Bytes given to the sink so far. */
  public long bytesWritten() {
    return bytesWritten;
  }

  /** Blocks written so far in this segment. */
  public int blockCount() {
    return index.blockCount();
  }

  /** Same as {@link #finish()}; the sink stays open. */
  @Override
  public void close() throws IOException {
    finish();
  }

  /** Encodes bytes already in memory as one segment; for tests and tools. */
  public static byte[] encode(BlockEncoder encoder, int blockSize, byte[] data)
      throws CodecException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    try (SegmentWriter w = new SegmentWriter(encoder, blockSize, out)) {
      w.write(data);
    } catch (CodecException e) {
      throw e;
    } catch (IOException e) {
      throw new IllegalStateException("A ByteArrayOutputStream does not fail", e);
    }
    return out.toByteArray();
  }
}
