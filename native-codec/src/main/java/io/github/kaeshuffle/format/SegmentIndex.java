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
import static io.github.kaeshuffle.format.BlockFormat.FRAME_HEADER_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_ENTRY_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_HEAD_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.MAX_BLOCK_SIZE;
import static io.github.kaeshuffle.format.BlockFormat.VERSION;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The block index of one segment, read from the segment's end before any block is touched: every
 * block's offset, raw and stored length. Parsing checks the footer magic, the index checksum, and
 * that the entries describe contiguous frames that end exactly where the index starts, so a reader
 * can trust offsets and sizes (frame headers are still checked again when decoded).
 */
public final class SegmentIndex {
  private final long[] offsets;
  private final int[] rawLengths;
  private final int[] storedLengths;
  private final long totalRawLength;
  private final long segmentLength;

  private SegmentIndex(long[] offsets, int[] raw, int[] stored, long totalRaw, long length) {
    this.offsets = offsets;
    this.rawLengths = raw;
    this.storedLengths = stored;
    this.totalRawLength = totalRaw;
    this.segmentLength = length;
  }

  /** Parses the index of the segment that occupies {@code [0, limit)} of {@code segment}. */
  public static SegmentIndex parse(ByteBuffer segment) throws CorruptBlockException {
    ByteBuffer b = segment.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int end = b.limit();
    if (end < FOOTER_LENGTH + INDEX_HEAD_LENGTH) {
      throw new CorruptBlockException("Truncated segment: " + end + " bytes cannot hold an index.");
    }
    long count = b.getInt(end - FOOTER_LENGTH + 16) & 0xffffffffL;
    long indexLength = BlockFormat.indexLength(count);
    if (indexLength > end) {
      throw new CorruptBlockException(
          "Segment footer declares "
              + count
              + " blocks, more than "
              + "its "
              + end
              + " bytes can hold: the segment is truncated or corrupt.");
    }
    return parseIndex(
        ByteBuffers.slice(b, end - (int) indexLength, (int) indexLength), end - indexLength);
  }

  /**
   * Parses an index region on its own: {@code index} holds exactly the index (head, entries,
   * footer) of a segment whose frames take {@code framesLength} bytes. Used by readers that stream
   * frames first and meet the index last.
   */
  public static SegmentIndex parseIndex(ByteBuffer index, long framesLength)
      throws CorruptBlockException {
    ByteBuffer b = index.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    Footer f = checkFooter(b, framesLength);
    return parseEntries(b, f);
  }

  /** What the footer declares, once checked against the index's length and checksum. */
  private static final class Footer {
    private final long totalRaw;
    private final long indexOffset;
    private final int count;
    private final int indexLength;

    Footer(long totalRaw, long indexOffset, int count, int indexLength) {
      this.totalRaw = totalRaw;
      this.indexOffset = indexOffset;
      this.count = count;
      this.indexLength = indexLength;
    }

    long totalRaw() {
      return totalRaw;
    }

    long indexOffset() {
      return indexOffset;
    }

    int count() {
      return count;
    }

    int indexLength() {
      return indexLength;
    }
  }

  private static Footer checkFooter(ByteBuffer b, long framesLength) throws CorruptBlockException {
    int end = b.limit();
    if (end < FOOTER_LENGTH + INDEX_HEAD_LENGTH) {
      throw new CorruptBlockException("Truncated segment index: " + end + " bytes.");
    }
    int footer = end - FOOTER_LENGTH;
    checkMagic(b.getInt(footer + 28));
    long totalRaw = b.getLong(footer);
    long indexOffset = b.getLong(footer + 8);
    long count = b.getInt(footer + 16) & 0xffffffffL;
    int version = b.get(footer + 20) & 0xff;
    if (version != VERSION) {
      throw new CorruptBlockException(
          "Segment index has format version "
              + version
              + "; this reader reads version "
              + VERSION
              + ".");
    }
    if (count < 1 || BlockFormat.indexLength(count) != end || indexOffset != framesLength) {
      throw new CorruptBlockException(
          "Segment footer is inconsistent: "
              + count
              + " blocks in an index of "
              + end
              + " bytes, frames end at "
              + indexOffset
              + " but take "
              + framesLength
              + " bytes.");
    }
    checkChecksum(b, footer);
    if (b.getInt(0) != INDEX_MAGIC || (b.getInt(4) & 0xffffffffL) != count) {
      throw new CorruptBlockException("Segment index head is inconsistent with its footer.");
    }
    return new Footer(totalRaw, indexOffset, (int) count, end);
  }

  private static void checkMagic(int magic) throws CorruptBlockException {
    if (magic != FOOTER_MAGIC) {
      throw new CorruptBlockException(
          String.format(
              "Bad segment footer magic 0x%08x (expected 0x%08x): the segment is truncated or"
                  + " corrupt.",
              magic, FOOTER_MAGIC));
    }
  }

  /** The footer's CRC32C covers the index and the footer up to the checksum itself. */
  private static void checkChecksum(ByteBuffer b, int footer) throws CorruptBlockException {
    Crc32c crc = new Crc32c();
    crc.update(ByteBuffers.range(b, 0, footer + 24));
    int expected = b.getInt(footer + 24);
    if ((int) crc.getValue() != expected) {
      throw new CorruptBlockException(
          String.format(
              "Segment index checksum mismatch: stored 0x%08x, computed 0x%08x.",
              expected, (int) crc.getValue()));
    }
  }

  /** Reads the entries; each must continue where the one before ends, as the footer says. */
  private static SegmentIndex parseEntries(ByteBuffer b, Footer f) throws CorruptBlockException {
    int n = f.count();
    long indexOffset = f.indexOffset();
    long totalRaw = f.totalRaw();
    long[] offsets = new long[n];
    int[] raw = new int[n];
    int[] stored = new int[n];
    long expectedOffset = 0;
    long rawSum = 0;
    for (int i = 0; i < n; i++) {
      int e = INDEX_HEAD_LENGTH + i * INDEX_ENTRY_LENGTH;
      offsets[i] = b.getLong(e);
      raw[i] = b.getInt(e + 8);
      stored[i] = b.getInt(e + 12);
      if (offsets[i] != expectedOffset
          || raw[i] < 1
          || raw[i] > MAX_BLOCK_SIZE
          || stored[i] < 1
          || stored[i] > raw[i] + FrameCipher.IV_LENGTH) { // an encrypted payload's IV
        throw new CorruptBlockException(
            "Segment index entry "
                + i
                + " is inconsistent: offset "
                + offsets[i]
                + " (expected "
                + expectedOffset
                + "), raw "
                + raw[i]
                + ", stored "
                + stored[i]
                + ".");
      }
      expectedOffset += FRAME_HEADER_LENGTH + stored[i];
      rawSum += raw[i];
    }
    if (expectedOffset != indexOffset || rawSum != totalRaw) {
      throw new CorruptBlockException(
          "Segment index entries add up to "
              + expectedOffset
              + " bytes and "
              + rawSum
              + " raw bytes; the footer says "
              + indexOffset
              + " and "
              + totalRaw
              + ".");
    }
    return new SegmentIndex(offsets, raw, stored, totalRaw, indexOffset + f.indexLength());
  }

  public int blockCount() {
    return offsets.length;
  }

  public long offset(int block) {
    return offsets[block];
  }

  public int rawLength(int block) {
    return rawLengths[block];
  }

  public int storedLength(int block) {
    return storedLengths[block];
  }

  public long totalRawLength() {
    return totalRawLength;
  }

  public long segmentLength() {
    return segmentLength;
  }

  /** The largest raw block: the room a reader needs to decode any block of this segment. */
  public int maxRawLength() {
    int max = 0;
    for (int r : rawLengths) {
      max = Math.max(max, r);
    }
    return max;
  }
}
