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
package io.github.kaeshuffle.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecodeWindowTest {
  @Test
  void eachSlotIsItsOwnRangeAndEachViewItsOwnPosition(@TempDir Path dir) throws Exception {
    for (DecodeWindow.Kind kind : DecodeWindow.Kind.values()) {
      try (DecodeWindow w = DecodeWindow.allocate(kind, 3, 16, dir)) {
        assertEquals(48, w.bytes());
        assertEquals(16, w.slotSize());
        for (int i = 0; i < w.slots(); i++) {
          ByteBuffer s = w.slot(i);
          while (s.hasRemaining()) {
            s.put((byte) i);
          }
        }
        ByteBuffer a = w.slot(1);
        ByteBuffer b = w.slot(1);
        a.position(10);
        assertEquals(0, b.position(), kind + ": a second view keeps its own position");
        for (int i = 0; i < w.slots(); i++) {
          ByteBuffer s = w.slot(i);
          assertEquals(16, s.remaining());
          while (s.hasRemaining()) {
            assertEquals(i, s.get(), kind + ": slot " + i + " holds only its own bytes");
          }
        }
      }
    }
  }

  @Test
  void aMappedWindowsFileGoesOnCloseAndCloseIsIdempotent(@TempDir Path dir) throws Exception {
    DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.MAPPED, 2, 4096, dir);
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count());
    }
    w.close();
    w.close();
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void aWindowNeedsTwoSlotsAndFitsAnInt(@TempDir Path dir) throws Exception {
    assertThrows(
        IllegalArgumentException.class,
        () -> DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 1, 1024, dir));
    assertThrows(
        IllegalArgumentException.class,
        () -> DecodeWindow.allocate(DecodeWindow.Kind.MAPPED, 1024, 4 << 20, dir));
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "a refused mapped window leaves no file");
    }
  }
}
