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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FileHolesTest {
  @Test
  void touchingHolesMergeFromEitherSide() {
    FileHoles h = new FileHoles();
    h.add(100, 50);
    h.add(200, 50);
    h.add(150, 50); // touches both: one hole 100..250
    assertEquals(100, h.firstOffset());
    assertEquals(150, h.firstLength());
    h.takeFirst(150);
    assertTrue(h.isEmpty());
  }

  @Test
  void theLowestHoleIsHandedOutFirstAndTakenFromItsStart() {
    FileHoles h = new FileHoles();
    h.add(500, 10);
    h.add(0, 30);
    h.takeFirst(20);
    assertEquals(20, h.firstOffset());
    assertEquals(10, h.firstLength());
    h.takeFirst(10);
    assertEquals(500, h.firstOffset());
  }

  @Test
  void freeingFreeBytesAgainIsRefused() {
    FileHoles h = new FileHoles();
    h.add(100, 50);
    assertThrows(IllegalStateException.class, () -> h.add(120, 10)); // inside
    assertThrows(IllegalStateException.class, () -> h.add(90, 20)); // overlaps its start
    assertThrows(IllegalStateException.class, () -> h.add(140, 20)); // overlaps its end
    assertFalse(h.isEmpty());
    assertEquals(50, h.firstLength(), "a refused free leaves the holes as they were");
  }

  @Test
  void moreThanAHoleHoldsCannotBeTaken() {
    FileHoles h = new FileHoles();
    h.add(0, 8);
    assertThrows(IllegalArgumentException.class, () -> h.takeFirst(9));
  }
}
