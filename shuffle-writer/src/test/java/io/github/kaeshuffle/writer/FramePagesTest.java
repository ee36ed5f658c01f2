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

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FramePagesTest {

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void bytesAcrossPagesComeBackAndMoveToTheFileAtTheirOffsets(boolean onHeap, @TempDir Path dir)
      throws Exception {
    LimitedBudget budget = new LimitedBudget(1L << 30);
    FramePages pages = new FramePages(3L << 20, new HeldMemory(budget, () -> 0), onHeap);
    byte[] data = TestBytes.noise(2 * FramePages.PAGE + 1000, 2 * FramePages.PAGE + 1000);
    // Two pages and a bit: a third page is taken, under the 3 MiB bound.
    assertEquals(data.length, pages.write(0, ByteBuffer.wrap(data)));
    assertEquals(3L * FramePages.PAGE, pages.end());
    assertEquals(3L * FramePages.PAGE, budget.used);

    int at = FramePages.PAGE - 10;
    ByteBuffer back = ByteBuffer.allocate(5000);
    pages.read(at, 5000, back);
    assertArrayEquals(Arrays.copyOfRange(data, at, at + 5000), back.array());

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    pages.copyTo(0, data.length, out, ByteBuffer.allocate(4096));
    assertArrayEquals(data, out.toByteArray());

    Path file = dir.resolve("frames");
    try (FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      assertEquals(3L * FramePages.PAGE, pages.moveTo(ch, data.length));
    }
    assertArrayEquals(data, Files.readAllBytes(file), "only the bytes used, at their offsets");
    assertEquals(0, budget.used);
    assertEquals(0, pages.end());
    assertEquals(0, pages.write(0, ByteBuffer.wrap(data)), "no pages after a move");
  }

  @Test
  void theBoundAndARefusedPageEndTheGrowthForGood() {
    LimitedBudget budget = new LimitedBudget(1L << 30);
    FramePages bounded = new FramePages(1L << 20, new HeldMemory(budget, () -> 0), true);
    byte[] data = TestBytes.noise(FramePages.PAGE + 10, FramePages.PAGE + 10);
    assertEquals(FramePages.PAGE, bounded.write(0, ByteBuffer.wrap(data)), "one page only");
    bounded.free();
    assertEquals(0, budget.used);

    LimitedBudget small = new LimitedBudget(FramePages.PAGE + 100);
    FramePages refused = new FramePages(8L << 20, new HeldMemory(small, () -> 0), true);
    assertEquals(FramePages.PAGE, refused.write(0, ByteBuffer.wrap(data)), "the second refused");
    refused.free();
    assertEquals(0, small.used);
    // The memory is back, but a refused page was the last one: from here on, the file.
    assertEquals(0, refused.write(0, ByteBuffer.wrap(data)));
    assertEquals(0, new FramePages(0, null, true).write(0, ByteBuffer.wrap(data)), "no pages");
  }
}
