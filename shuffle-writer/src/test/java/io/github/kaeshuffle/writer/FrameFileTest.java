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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrameFileTest {
  private static ByteBuffer bytes(char c, int n) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) c);
    return ByteBuffer.wrap(b);
  }

  private static String text(ByteBuffer b) {
    b.flip();
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return new String(a, StandardCharsets.US_ASCII);
  }

  private static FrameFile file(Path dir, int partitions) {
    return new FrameFile(
        () -> Files.createTempFile(dir, "frames", ""),
        partitions,
        new FramePages(0, new HeldMemory(new LimitedBudget(0), () -> 0), true));
  }

  @Test
  void bytesAcrossTheEndOfThePagesComeBackWhole(@TempDir Path dir) throws Exception {
    LimitedBudget budget = new LimitedBudget(1L << 30);
    FramePages pages = new FramePages(1L << 20, new HeldMemory(budget, () -> 0), true);
    try (FrameFile f = new FrameFile(() -> Files.createTempFile(dir, "frames", ""), 2, pages)) {
      int first = FramePages.PAGE - 100;
      f.park(0, bytes('a', first));
      try (var files = Files.list(dir)) {
        assertEquals(0, files.count(), "in the page: no file yet");
      }
      // 100 bytes in the page, 900 in the file past it.
      f.park(1, bytes('b', 1000));
      ByteBuffer back = ByteBuffer.allocate(1000);
      f.readParked(1, back);
      assertEquals("b".repeat(1000), text(back));
      assertEquals(FramePages.PAGE, budget.used, "one page held");
      // A spill moves the page to the file: the bytes read back are the same.
      assertEquals(FramePages.PAGE, f.moveToDisk());
      assertEquals(0, budget.used);
      ByteBuffer a = ByteBuffer.allocate(first);
      f.readParked(0, a);
      assertEquals("a".repeat(first), text(a));
    }
  }

  @Test
  void parkedBytesComeBackInOrderAndTheirSpaceIsReused(@TempDir Path dir) throws Exception {
    try (FrameFile f = file(dir, 3)) {
      f.park(0, bytes('a', 1000));
      f.park(1, bytes('b', 500));
      f.park(0, bytes('c', 300));
      ByteBuffer back = ByteBuffer.allocate(2000);
      f.readParked(0, back);
      assertEquals("a".repeat(1000) + "c".repeat(300), text(back));
      assertEquals(1800, f.length());
      // 1,200 bytes fit the two holes left (1,000 at 0 and 300 at 1,500): the file does not grow.
      f.park(2, bytes('d', 1200));
      assertEquals(1800, f.length());
      back.clear();
      f.readParked(2, back);
      assertEquals("d".repeat(1200), text(back));
      back.clear();
      f.readParked(1, back);
      assertEquals("b".repeat(500), text(back));
      assertEquals(3000, f.bytes());
    }
  }

  @Test
  void framesFillHolesAndAreCopiedOutInOrder(@TempDir Path dir) throws Exception {
    try (FrameFile f = file(dir, 3)) {
      f.park(0, bytes('p', 1000));
      f.append(1, bytes('x', 100), 100);
      f.readParked(0, ByteBuffer.allocate(1000));
      f.append(1, bytes('y', 600), 600);
      f.append(2, bytes('z', 500), 500);
      // y in the hole's first 600 bytes, z in its last 400 and 100 past the end.
      assertEquals(1200, f.length());
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      f.copyTo(1, one);
      assertArrayEquals(("x".repeat(100) + "y".repeat(600)).getBytes(), one.toByteArray());
      ByteArrayOutputStream two = new ByteArrayOutputStream();
      f.copyTo(2, two);
      assertArrayEquals("z".repeat(500).getBytes(), two.toByteArray());
    }
  }

  @Test
  void holesMergeAndAreNeverFreedTwice() {
    FileHoles h = new FileHoles();
    h.add(0, 10);
    h.add(20, 10);
    h.add(10, 10);
    assertEquals(0, h.firstOffset());
    assertEquals(30, h.firstLength());
    h.takeFirst(25);
    assertEquals(25, h.firstOffset());
    assertEquals(5, h.firstLength());
    assertThrows(IllegalStateException.class, () -> h.add(27, 1));
    assertThrows(IllegalStateException.class, () -> h.add(20, 6));
    // The refused frees changed nothing: those 5 bytes were all that was free.
    h.takeFirst(5);
    assertTrue(h.isEmpty());
  }
}
