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
import static io.github.kaeshuffle.format.BlockFormat.FRAME_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_HEAD_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.MAX_BLOCK_SIZE;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads the raw bytes of one or more concatenated segments from a stream, frame by frame: each
 * frame is read whole, checked and decoded with one codec call into a block buffer the reads are
 * served from. When a segment's index arrives it is checked against the frames just read (count,
 * every raw and stored length, offsets, totals), so a lost, duplicated or reordered frame is caught
 * even when every frame on its own is intact. The stream may end only at a segment boundary, and
 * not before its first segment when it is a fetched block: Spark never fetches an empty one, so a
 * stream that ends at once lost its bytes (a file cut short before the segment starts). Memory: one
 * frame and one block, whatever the segment's size.
 */
public final class SegmentStreamDecoder extends BlockSourceInputStream {
  private final InputStream in;
  private final BlockDecoder decoder;
  private ByteBuffer frame =
      ByteBuffer.allocate(FRAME_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
  private ByteBuffer block = ByteBuffer.allocate(0);
  private final SegmentIndexBuilder seen = new SegmentIndexBuilder();
  private final boolean fetchedBlock;
  private long segments;

  /** {@code decoder} is borrowed: closing this stream closes {@code in}, not the decoder. */
  public SegmentStreamDecoder(InputStream in, BlockDecoder decoder) {
    this(in, decoder, false);
  }

  /**
   * @param fetchedBlock the stream is a block Spark fetched, which holds at least one segment
   */
  public SegmentStreamDecoder(InputStream in, BlockDecoder decoder, boolean fetchedBlock) {
    this.in = in;
    this.decoder = decoder;
    this.fetchedBlock = fetchedBlock;
  }

  @Override
  protected ByteBuffer nextBlock() throws IOException {
    return decodeNext() ? block : null;
  }

  /** Decodes the next frame into the block buffer; false at the clean end of the stream. */
  private boolean decodeNext() throws IOException {
    while (true) {
      frame.clear();
      frame.limit(FRAME_HEADER_LENGTH);
      int got = readUpTo(frame, 8);
      if (got == 0) {
        checkCleanEnd();
        return false;
      }
      if (got < 8) {
        throw new CorruptBlockException("Truncated segment: " + got + " stray bytes at the end.");
      }
      int magic = frame.getInt(0);
      if (magic == INDEX_MAGIC) {
        readIndex(frame.getInt(4) & 0xffffffffL);
        continue;
      }
      if (magic != FRAME_MAGIC) {
        throw new CorruptBlockException(
            String.format("Bad magic 0x%08x: neither a frame nor a segment index.", magic));
      }
      FrameHeader h = readFrame();
      if (block.capacity() < h.rawLength()) {
        block = ByteBuffer.allocate(Math.max(h.rawLength(), BlockFormat.DEFAULT_BLOCK_SIZE));
      }
      block.clear();
      decoder.decode(frame, 0, -1, block);
      block.flip();
      seen.add(h.rawLength(), h.storedLength());
      return true;
    }
  }

  /** The stream ended: right only after a whole segment, and a fetched block has at least one. */
  private void checkCleanEnd() throws CorruptBlockException {
    if (seen.blockCount() > 0) {
      throw new CorruptBlockException(
          "Truncated segment: the stream ends after "
              + seen.blockCount()
              + " frames, before the segment's index.");
    }
    if (fetchedBlock && segments == 0) {
      throw new CorruptBlockException(
          "The block's stream ended before its first segment: its bytes are missing.");
    }
  }

  /** Reads the rest of a frame whose first 8 bytes are in {@code frame}; returns its header. */
  private FrameHeader readFrame() throws IOException {
    readFully(frame, FRAME_HEADER_LENGTH);
    int stored = frame.getInt(12);
    if (stored < 1 || stored > MAX_BLOCK_SIZE + FrameCipher.IV_LENGTH) {
      throw new CorruptBlockException("Frame declares stored length " + stored + ".");
    }
    if (frame.capacity() < FRAME_HEADER_LENGTH + stored) {
      frame = copyGrown(frame, FRAME_HEADER_LENGTH + stored);
    }
    frame.limit(FRAME_HEADER_LENGTH + stored);
    readFully(frame, FRAME_HEADER_LENGTH + stored);
    return FrameHeader.parse(frame, 0);
  }

  private void readIndex(long count) throws IOException {
    if (count < 1 || count != seen.blockCount()) {
      throw new CorruptBlockException(
          "Segment index declares " + count + " blocks after " + seen.blockCount() + " frames.");
    }
    int length = Math.toIntExact(BlockFormat.indexLength(count));
    ByteBuffer index = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    index.put(frame.array(), 0, INDEX_HEAD_LENGTH);
    readFully(index, length);
    SegmentIndex parsed = SegmentIndex.parseIndex(ByteBuffers.flip(index), seen.framesLength());
    ByteBuffer expected = seen.build();
    if (!expected.equals(index.rewind())) {
      throw new CorruptBlockException(
          "Segment index does not describe the "
              + count
              + " frames read before it ("
              + parsed.totalRawLength()
              + " raw bytes indexed, "
              + seen.totalRawLength()
              + " read).");
    }
    seen.reset();
    segments++;
  }

  /** Reads into b until its position is {@code upTo} or the stream ends; returns bytes read. */
  private int readUpTo(ByteBuffer b, int upTo) throws IOException {
    int start = b.position();
    while (b.position() < upTo) {
      int n = in.read(b.array(), b.arrayOffset() + b.position(), upTo - b.position());
      if (n < 0) {
        break;
      }
      b.position(b.position() + n);
    }
    return b.position() - start;
  }

  private void readFully(ByteBuffer b, int upTo) throws IOException {
    readUpTo(b, upTo);
    if (b.position() < upTo) {
      throw new CorruptBlockException(
          "Truncated segment: the stream ended inside a frame or an" + " index.",
          new EOFException());
    }
  }

  private static ByteBuffer copyGrown(ByteBuffer b, int capacity) {
    ByteBuffer bigger = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
    bigger.put(b.array(), 0, b.position());
    return bigger;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
