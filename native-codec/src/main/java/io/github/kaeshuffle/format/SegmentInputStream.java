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
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Reads back the raw bytes of one or more concatenated segments, block by block: each block is
 * decoded whole (one codec call) into a reused buffer and served from there. The segments are split
 * and their indexes checked up front, so a bad index fails before any byte is returned.
 */
public final class SegmentInputStream extends BlockSourceInputStream {
  private final BlockDecoder decoder;
  private final List<Segment> segments;
  private ByteBuffer block = ByteBuffer.allocate(0);
  private int segment;
  private int blockInSegment;

  public SegmentInputStream(ByteBuffer data, BlockDecoder decoder) throws CodecException {
    this(Segments.split(data), decoder);
  }

  /** Reads segments already split, their indexes parsed ({@link Segments#split}). */
  public SegmentInputStream(List<Segment> segments, BlockDecoder decoder) {
    this.decoder = decoder;
    this.segments = segments;
  }

  @Override
  protected ByteBuffer nextBlock() throws IOException {
    while (segment < segments.size()) {
      Segment seg = segments.get(segment);
      SegmentIndex index = seg.index();
      if (blockInSegment < index.blockCount()) {
        int raw = index.rawLength(blockInSegment);
        if (block.capacity() < raw) {
          block = ByteBuffer.allocate(raw);
        }
        block.clear();
        decoder.decode(seg.bytes(), (int) index.offset(blockInSegment), raw, block);
        blockInSegment++;
        return ByteBuffers.flip(block);
      }
      segment++;
      blockInSegment = 0;
    }
    return null;
  }
}
