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

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExtentsTest {
  @Test
  void bytesWrittenInOneRunStayOnePiece() {
    Extents e = new Extents();
    e.add(0, 10);
    e.add(10, 5);
    e.add(40, 5); // a gap: a new piece
    e.add(45, 1);
    assertEquals(2, e.count());
    assertEquals(0, e.offset(0));
    assertEquals(15, e.length(0));
    assertEquals(40, e.offset(1));
    assertEquals(6, e.length(1));
  }

  @Test
  void piecesKeepTheOrderTheyWereWrittenInAndGrowPastTheFirstArray() {
    Extents e = new Extents();
    for (int i = 0; i < 100; i++) {
      e.add(1000 - 10L * i, 5); // each before the last: never merged
    }
    assertEquals(100, e.count());
    assertEquals(1000, e.offset(0));
    assertEquals(10, e.offset(99));
    e.clear();
    assertEquals(0, e.count());
  }
}
