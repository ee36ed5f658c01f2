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
import static io.github.kaeshuffle.format.BlockFormat.INDEX_MAGIC;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Walks buffers that hold several segments back to back (a batch of contiguous partitions). */
public final class Segments {
  private Segments() {}

  /**
   * Splits {@code [position, limit)} of {@code buf} into its segments, each a slice whose index 0
   * is the segment's start, with its index parsed and checked (once: readers use it as it is).
   * Walks forward frame by frame until an index head, then skips the index. An empty range has no
   * segments.
   */
  public static List<Segment> split(ByteBuffer buf) throws CorruptBlockException {
    ByteBuffer b = buf.slice().order(ByteOrder.LITTLE_ENDIAN);
    List<Segment> out = new ArrayList<>();
    int start = 0;
    int at = 0;
    int end = b.limit();
    while (at < end) {
      if (end - at < 8) {
        throw new CorruptBlockException(
            "Truncated segment: " + (end - at) + " stray bytes at offset " + at + ".");
      }
      int magic = b.getInt(at);
      if (magic == FRAME_MAGIC) {
        FrameHeader h = FrameHeader.parse(b, at);
        at += FRAME_HEADER_LENGTH + h.storedLength();
      } else if (magic == INDEX_MAGIC) {
        long count = b.getInt(at + 4) & 0xffffffffL;
        long segEnd = at + BlockFormat.indexLength(count);
        if (count < 1 || segEnd > end) {
          throw new CorruptBlockException(
              "Segment index at offset "
                  + at
                  + " declares "
                  + count
                  + " blocks, which do not fit in the "
                  + (end - at)
                  + " bytes left.");
        }
        out.add(Segment.of(ByteBuffers.slice(b, start, (int) (segEnd - start))));
        at = (int) segEnd;
        start = at;
      } else {
        throw new CorruptBlockException(
            String.format(
                "Bad magic 0x%08x at offset %d: neither a frame nor a segment index.", magic, at));
      }
    }
    if (start != end) {
      throw new CorruptBlockException(
          "Truncated segment: frames at offset " + start + " have no index.");
    }
    return out;
  }

  /**
   * Checks every frame of {@code segments} against its index and its CRC32C without decompressing
   * ({@link BlockDecoder#verify}): for bytes that must be known good before they are handed on.
   */
  public static void verifyFrames(List<Segment> segments, BlockDecoder decoder)
      throws CodecException {
    for (Segment seg : segments) {
      SegmentIndex index = seg.index();
      for (int b = 0; b < index.blockCount(); b++) {
        decoder.verify(seg.bytes(), (int) index.offset(b), index.rawLength(b));
      }
    }
  }
}
