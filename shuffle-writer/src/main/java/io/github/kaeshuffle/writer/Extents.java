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

import java.util.Arrays;

/**
 * Where some bytes lie in a file: (offset, length) pieces in the order the bytes were written. A
 * piece that starts where the last one ends extends it, so bytes written in one run stay one piece.
 */
final class Extents {
  private long[] pieces = new long[4];
  private int count;

  void add(long offset, long length) {
    if (count > 0 && offset(count - 1) + length(count - 1) == offset) {
      pieces[2 * count - 1] += length;
      return;
    }
    if (2 * count == pieces.length) {
      pieces = Arrays.copyOf(pieces, 2 * pieces.length);
    }
    pieces[2 * count] = offset;
    pieces[2 * count + 1] = length;
    count++;
  }

  int count() {
    return count;
  }

  long offset(int i) {
    return pieces[2 * i];
  }

  long length(int i) {
    return pieces[2 * i + 1];
  }

  void clear() {
    count = 0;
  }
}
