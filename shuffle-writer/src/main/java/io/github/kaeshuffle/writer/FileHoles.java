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
package io.github.kaeshuffle.writer;

import java.util.Map;
import java.util.TreeMap;

/**
 * The free ranges inside a file, reused before the file grows: where parked bytes lay once they
 * were read back. Adjacent ranges merge, so the file holds at most the bytes still live plus what
 * its writes have not yet reused. Handed out lowest offset first.
 */
final class FileHoles {
  /** Offset to length; never two touching. */
  private final TreeMap<Long, Long> holes = new TreeMap<>();

  boolean isEmpty() {
    return holes.isEmpty();
  }

  /** The lowest hole's offset; the holes must not be empty. */
  long firstOffset() {
    return holes.firstKey();
  }

  /** The lowest hole's length; the holes must not be empty. */
  long firstLength() {
    return holes.firstEntry().getValue();
  }

  /** Takes the lowest hole's first {@code n} bytes (at most its length). */
  void takeFirst(long n) {
    Map.Entry<Long, Long> first = holes.pollFirstEntry();
    if (n > first.getValue()) {
      throw new IllegalArgumentException(n + " bytes taken from a hole of " + first.getValue());
    }
    if (n < first.getValue()) {
      holes.put(first.getKey() + n, first.getValue() - n);
    }
  }

  /**
   * Frees {@code length} bytes at {@code offset}, merging with the holes either side. Freeing bytes
   * already free is a bug that would let live bytes be overwritten, so it throws.
   */
  void add(long offset, long length) {
    long start = offset;
    long end = offset + length;
    Map.Entry<Long, Long> before = holes.floorEntry(offset);
    Map.Entry<Long, Long> after = holes.ceilingEntry(offset);
    if ((before != null && before.getKey() + before.getValue() > offset)
        || (after != null && after.getKey() < end)) {
      throw new IllegalStateException(
          "Bytes " + offset + ".." + end + " of the frame file freed twice.");
    }
    if (before != null && before.getKey() + before.getValue() == offset) {
      start = before.getKey();
      holes.remove(start);
    }
    if (after != null && after.getKey() == end) {
      holes.remove(end);
      end += after.getValue();
    }
    holes.put(start, end - start);
  }
}
