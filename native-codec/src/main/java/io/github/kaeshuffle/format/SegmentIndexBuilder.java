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

import static io.github.kaeshuffle.format.BlockFormat.FOOTER_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.FOOTER_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_ENTRY_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_HEAD_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.VERSION;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Collects the frames of one segment, in order, and writes the block index that closes it: the one
 * place a segment's frames and tail are made, for both writers ({@link SegmentWriter}, which
 * streams frames out as they come, and the block writer, which keeps or spills them first), and the
 * ledger a streaming reader checks a segment's index against. Frames are contiguous from the
 * segment's start.
 */
public final class SegmentIndexBuilder {
  /**
   * Raw length << 32 | stored length, per block; made with the first frame (a map task with 20,000
   * partitions keeps 20,000 builders for its whole life, most of them with one frame at its end).
   */
  private long[] entries = NONE;

  private static final long[] NONE = new long[0];
  private int count;
  private long framesLength;
  private long totalRaw;

  /** Records the next frame: its raw and stored (payload) length. */
  public void add(int rawLength, int storedLength) {
    if (count == entries.length) {
      entries = Arrays.copyOf(entries, Math.max(4, count * 2));
    }
    entries[count++] = ((long) rawLength << 32) | (storedLength & 0xffffffffL);
    framesLength += BlockFormat.FRAME_HEADER_LENGTH + storedLength;
    totalRaw += rawLength;
  }

  /**
   * Encodes the remaining bytes of {@code raw} as the segment's next frame, written at {@code
   * out}'s position (which advances), and records it; returns the frame's length.
   */
  public int encode(BlockEncoder encoder, ByteBuffer raw, ByteBuffer out) throws CodecException {
    int rawLength = raw.remaining();
    int length = encoder.encode(raw, out);
    add(rawLength, length - BlockFormat.FRAME_HEADER_LENGTH);
    return length;
  }

  /**
   * Writes the index that closes the segment after its frames; returns its length. A segment with
   * no frame has no index either: nothing is written and 0 returned.
   */
  public int writeIndex(OutputStream out) throws IOException {
    if (count == 0) {
      return 0;
    }
    ByteBuffer idx = build();
    out.write(idx.array(), idx.arrayOffset(), idx.remaining());
    return idx.remaining();
  }

  public int blockCount() {
    return count;
  }

  /** Bytes of frames recorded so far: where the index will start. */
  public long framesLength() {
    return framesLength;
  }

  public long totalRawLength() {
    return totalRaw;
  }

  public int indexLength() {
    return Math.toIntExact(BlockFormat.indexLength(count));
  }

  /** The index as bytes; a segment is its frames followed by these. */
  public ByteBuffer build() {
    if (count == 0) {
      throw new IllegalStateException("An empty segment has no index: write nothing instead.");
    }
    ByteBuffer b = ByteBuffer.allocate(indexLength()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(INDEX_MAGIC).putInt(count);
    long offset = 0;
    for (int i = 0; i < count; i++) {
      int raw = (int) (entries[i] >>> 32);
      int stored = (int) entries[i];
      b.putLong(offset).putInt(raw).putInt(stored);
      offset += BlockFormat.FRAME_HEADER_LENGTH + stored;
    }
    b.putLong(totalRaw)
        .putLong(framesLength)
        .putInt(count)
        .put((byte) VERSION)
        .put((byte) 0)
        .put((byte) 0)
        .put((byte) 0);
    Crc32c crc = new Crc32c();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue()).putInt(FOOTER_MAGIC);
    assert b.position() == INDEX_HEAD_LENGTH + count * INDEX_ENTRY_LENGTH + FOOTER_LENGTH;
    return ByteBuffers.flip(b);
  }

  /** Forgets all frames, to build the next segment. */
  public void reset() {
    count = 0;
    framesLength = 0;
    totalRaw = 0;
  }
}
