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

import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;

/**
 * One segment held in memory with its index, parsed once: the frames and index occupy {@code [0,
 * limit)} of {@code bytes}, and {@code index} gives every block's offset in it and raw length.
 * Readers take blocks from here instead of parsing the index again.
 *
 * @param bytes the segment's bytes, index 0 at the segment's start
 * @param index its block index, already checked
 */
public final class Segment {
  private final ByteBuffer bytes;
  private final SegmentIndex index;

  public Segment(ByteBuffer bytes, SegmentIndex index) {
    this.bytes = bytes;
    this.index = index;
  }

  public ByteBuffer bytes() {
    return bytes;
  }

  public SegmentIndex index() {
    return index;
  }

  /** Parses the index of the segment that occupies {@code [0, limit)} of {@code bytes}. */
  public static Segment of(ByteBuffer bytes) throws CorruptBlockException {
    return new Segment(bytes, SegmentIndex.parse(bytes));
  }
}
