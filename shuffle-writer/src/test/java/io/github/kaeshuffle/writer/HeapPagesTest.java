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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** FramePages' heap pages kept from one task for the next. */
class HeapPagesTest {

  @Test
  void aPageGivenBackIsLentAgainZeroed() {
    ByteBuffer page = HeapPages.take(FramePages.PAGE);
    assertEquals(FramePages.PAGE, page.capacity());
    assertEquals(0, page.position());
    Arrays.fill(page.array(), (byte) 7);
    long made = HeapPages.made();
    long reused = HeapPages.reused();
    HeapPages.giveBack(page);
    // `page` still refers to the array, so the collector cannot have taken it.
    ByteBuffer again = HeapPages.take(FramePages.PAGE);
    assertSame(page.array(), again.array());
    assertEquals(made, HeapPages.made(), "no page made");
    assertEquals(reused + 1, HeapPages.reused());
    for (byte b : again.array()) {
      if (b != 0) {
        throw new AssertionError("a reused page kept the last task's bytes");
      }
    }
    assertEquals(0, again.position());
    assertEquals(FramePages.PAGE, again.limit());
    HeapPages.giveBack(again);
  }

  @Test
  void anIdlePageTheCollectorTookIsMadeAgain() {
    ByteBuffer page = HeapPages.take(FramePages.PAGE);
    HeapPages.giveBack(page);
    HeapPages.clearIdle();
    long made = HeapPages.made();
    ByteBuffer again = HeapPages.take(FramePages.PAGE);
    assertTrue(again.array() != page.array());
    assertEquals(made + 1, HeapPages.made());
    assertEquals(FramePages.PAGE, again.capacity());
    HeapPages.giveBack(again);
  }

  @Test
  void clearedReferencesDoNotPileUp() {
    int size = HeapPages.KEPT_FROM + 4096; // a length no other test uses
    ByteBuffer held = HeapPages.take(size);
    // Each round leaves a page the collector took under a live one, which the next take finds
    // first, as in a long application whose tasks always find a live page.
    for (int i = 0; i < 200; i++) {
      HeapPages.giveBack(ByteBuffer.wrap(new byte[size]));
      HeapPages.clearIdle();
      HeapPages.giveBack(held);
      assertSame(held.array(), HeapPages.take(size).array());
      assertTrue(HeapPages.idleEntries(size) <= 32, "entries: " + HeapPages.idleEntries(size));
    }
  }

  @Test
  void pagesLentAtOnceAreDistinct() {
    ByteBuffer a = HeapPages.take(FramePages.PAGE);
    ByteBuffer b = HeapPages.take(FramePages.PAGE);
    assertTrue(a.array() != b.array());
    HeapPages.giveBack(a);
    HeapPages.giveBack(b);
  }

  @Test
  void pagesAreKeptByTheirLength() {
    ByteBuffer large = HeapPages.take(RawChunks.MAX_PAGE);
    HeapPages.giveBack(large);
    assertTrue(HeapPages.take(FramePages.PAGE).array() != large.array(), "another length");
    assertSame(large.array(), HeapPages.take(RawChunks.MAX_PAGE).array());
  }

  @Test
  void smallPagesAreNotKept() {
    ByteBuffer small = HeapPages.take(HeapPages.KEPT_FROM - 1);
    HeapPages.giveBack(small);
    assertTrue(HeapPages.take(HeapPages.KEPT_FROM - 1).array() != small.array());
  }

  @Test
  void onlyHeapPagesComeBack() {
    assertThrows(
        IllegalArgumentException.class,
        () -> HeapPages.giveBack(ByteBuffer.allocateDirect(FramePages.PAGE)));
    ByteBuffer slice = ByteBuffer.allocate(FramePages.PAGE + 1).position(1).slice();
    assertThrows(IllegalArgumentException.class, () -> HeapPages.giveBack(slice));
  }
}
