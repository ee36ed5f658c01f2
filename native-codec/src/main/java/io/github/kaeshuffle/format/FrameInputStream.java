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

import static io.github.kaeshuffle.format.BlockFormat.FRAME_HEADER_LENGTH;

import io.github.kaeshuffle.codec.CorruptBlockException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * Reads what {@link FrameOutputStream} wrote, and any number of such streams one after the other:
 * frame by frame, each checked (header, CRC32C) and decoded whole by {@link BlockDecoder}, which
 * reads every codec format whatever codec wrote it, and each stream's end mark checked against the
 * bytes its frames gave. Bytes that end anywhere but after an end mark (or, read as a stream still
 * being written, between two frames), and any frame or mark that does not check, are a {@link
 * CorruptBlockException}, never wrong or missing bytes. No bytes at all read as an empty stream.
 * With a {@link FrameBufferPool} its frame and block are borrowed at the first frame and given back
 * at {@link #close} (Spark opens an input stream for every cached block and broadcast piece it
 * reads); without one they grow to what the stream holds. Not thread-safe.
 */
public final class FrameInputStream extends BlockSourceInputStream {
  private final InputStream in;
  private final BlockDecoder decoder;
  private final Consumer<BlockDecoder> release;

  /** Lends {@link #frame} and {@link #block} at the first frame; null: the stream's own. */
  private final FrameBufferPool pool;

  /** What {@link #pool} lent, given back at close; frames or blocks larger than it are our own. */
  private FrameBufferPool.Buffers lent;

  /** The frame being read: its header, then its payload. Grows to the largest frame seen. */
  private byte[] frame = new byte[FRAME_HEADER_LENGTH];

  /** The decoded block, reused for every frame. */
  private ByteBuffer block = ByteBuffer.allocate(0);

  /** Whether a stream's bytes may end between two frames, without an end mark. */
  private final boolean continuous;

  /** Frames read, and raw bytes they gave since the last end mark. */
  private long frames;

  private long rawBytes;
  private boolean marked;
  private boolean closed;

  /**
   * @param in the frames; closed with this stream
   * @param decoder decodes each frame; handed to {@code release} once, at {@link #close}
   * @param continuous whether the bytes may end without an end mark (a file still being written, as
   *     Spark's History Server reads an application's event log)
   */
  public FrameInputStream(
      InputStream in, BlockDecoder decoder, Consumer<BlockDecoder> release, boolean continuous) {
    this(in, decoder, null, release, continuous);
  }

  /**
   * @param in the frames; closed with this stream
   * @param decoder decodes each frame; handed to {@code release} once, at {@link #close}
   * @param pool lends the frame and block buffers (up to its block size), given back at {@link
   *     #close}; null for buffers of the stream's own
   * @param continuous whether the bytes may end without an end mark
   */
  public FrameInputStream(
      InputStream in,
      BlockDecoder decoder,
      FrameBufferPool pool,
      Consumer<BlockDecoder> release,
      boolean continuous) {
    this.in = in;
    this.continuous = continuous;
    this.decoder = decoder;
    this.pool = pool;
    this.release = release;
  }

  @Override
  protected ByteBuffer nextBlock() throws IOException {
    open();
    return nextFrame() ? block : null;
  }

  /** Gives the decoder back and closes the stream below. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    dropCurrent();
    try {
      in.close();
    } finally {
      try {
        release.accept(decoder);
      } finally {
        giveBackBuffers();
      }
    }
  }

  private void giveBackBuffers() {
    if (lent != null) {
      pool.giveBack(lent);
      lent = null;
      frame = null;
      block = null;
    }
  }

  /**
   * Borrows the pool's frame and block before the first frame's payload is read, the header read so
   * far copied into the lent frame.
   */
  private void borrowBuffers() {
    if (pool == null || lent != null) {
      return;
    }
    int most = FRAME_HEADER_LENGTH + pool.blockSize() + FrameCipher.IV_LENGTH;
    lent = pool.borrow(most);
    System.arraycopy(frame, 0, lent.frame.array(), 0, FRAME_HEADER_LENGTH);
    frame = lent.frame.array();
    block = lent.block;
  }

  /**
   * Reads and decodes the next frame into {@link #block}, after any end marks; false where the
   * bytes end.
   */
  private boolean nextFrame() throws IOException {
    int got = readFully(frame, 0, FRAME_HEADER_LENGTH);
    while (got == BlockFormat.STREAM_END_LENGTH && StreamEnd.starts(frame)) {
      StreamEnd.check(frame, rawBytes);
      rawBytes = 0;
      marked = true;
      got = readFully(frame, 0, FRAME_HEADER_LENGTH);
    }
    if (got == 0) {
      if (marked || continuous || frames == 0) {
        return false;
      }
      throw truncated("its last frame, without the stream's end mark");
    }
    if (got < FRAME_HEADER_LENGTH) {
      throw truncated(got + " bytes of a " + FRAME_HEADER_LENGTH + "-byte frame header");
    }
    marked = false;
    ByteBuffer head = ByteBuffer.wrap(frame, 0, FRAME_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    int raw = head.getInt(8);
    int stored = head.getInt(12);
    int most = BlockFormat.MAX_BLOCK_SIZE + FrameCipher.IV_LENGTH;
    if (stored < 1 || stored > most || raw < 1 || raw > BlockFormat.MAX_BLOCK_SIZE) {
      throw new CorruptBlockException(
          "Frame "
              + frames
              + " of the stream declares "
              + raw
              + " raw and "
              + stored
              + " stored bytes.");
    }
    borrowBuffers();
    if (frame.length < FRAME_HEADER_LENGTH + stored) {
      byte[] larger = new byte[FRAME_HEADER_LENGTH + stored];
      System.arraycopy(frame, 0, larger, 0, FRAME_HEADER_LENGTH);
      frame = larger;
    }
    got = readFully(frame, FRAME_HEADER_LENGTH, stored);
    if (got < stored) {
      throw truncated(got + " of the " + stored + " payload bytes its header declares");
    }
    if (block.capacity() < raw) {
      block = ByteBuffer.allocate(raw);
    }
    block.clear();
    decoder.decode(ByteBuffer.wrap(frame, 0, FRAME_HEADER_LENGTH + stored), 0, -1, block);
    block.flip();
    frames++;
    rawBytes += raw;
    return true;
  }

  private CorruptBlockException truncated(String what) {
    return new CorruptBlockException(
        "Truncated frame stream: frame " + frames + " ends after " + what + ".");
  }

  /** Reads up to {@code len} bytes, fewer only where the stream ends; returns how many. */
  private int readFully(byte[] b, int off, int len) throws IOException {
    int done = 0;
    while (done < len) {
      int n = in.read(b, off + done, len - done);
      if (n < 0) {
        break;
      }
      done += n;
    }
    return done;
  }

  private void open() throws IOException {
    if (closed) {
      throw new IOException("The frame stream is closed.");
    }
  }
}
