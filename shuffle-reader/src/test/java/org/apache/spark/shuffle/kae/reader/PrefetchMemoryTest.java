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
package org.apache.spark.shuffle.kae.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.reader.DecodeWindow;
import io.github.kaeshuffle.reader.ReaderSettings;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reduce task's decompress-ahead memory is Spark execution memory of the task: taken whole or not
 * at all, reused while the task runs, and all of it given back on close.
 */
class PrefetchMemoryTest {
  private static final int MIB = 1 << 20;

  /** Spark's unified memory of {@code mib} MiB, half of it the storage region, for one task. */
  private static UnifiedMemoryManager memory(int mib) {
    return new UnifiedMemoryManager(
        new SparkConf(false), (long) mib * MIB, (long) mib * MIB / 2, 1);
  }

  /** Windows of {@code slots} slots of 64 KiB. */
  private static ReaderSettings settings(DecodeWindow.Kind kind, int slots) {
    int slot = 64 << 10;
    return new ReaderSettings(null, true, (long) slots * slot, kind, slot, 4L * MIB, 4 * MIB);
  }

  private static PrefetchMemory prefetch(
      UnifiedMemoryManager mm, DecodeWindow.Kind kind, int slots, Path dir) {
    return new PrefetchMemory(new TaskMemoryManager(mm, 0), settings(kind, slots), () -> dir);
  }

  @Test
  void aWindowIsReservedOnceAndReusedByTheNextStream(@TempDir Path dir) throws IOException {
    UnifiedMemoryManager mm = memory(16);
    PrefetchMemory memory = prefetch(mm, DecodeWindow.Kind.DIRECT, 8, dir);
    DecodeWindow first = memory.window().get();
    assertEquals(8 * (64 << 10), first.bytes());
    assertEquals(first.bytes(), mm.executionMemoryUsed());

    memory.giveBack(first);
    assertSame(first, memory.window().get(), "the next stream reuses the idle window");
    DecodeWindow second = memory.window().get();
    assertNotSame(first, second, "two streams open at once get two windows");
    assertEquals(2 * first.bytes(), mm.executionMemoryUsed());

    memory.close();
    assertEquals(0, mm.executionMemoryUsed());
  }

  @Test
  void aWindowMemoryDoesNotAllowIsRefusedAndNothingStaysReserved(@TempDir Path dir) {
    UnifiedMemoryManager mm = memory(1);
    PrefetchMemory memory = prefetch(mm, DecodeWindow.Kind.DIRECT, 32, dir); // 2 MiB
    assertTrue(memory.window().isEmpty());
    assertEquals(0, mm.executionMemoryUsed());
    memory.close();
  }

  private static long files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.count();
    }
  }

  @Test
  void aMappedWindowsFileGoesWhereAskedAndIsDeletedOnClose(@TempDir Path dir) throws IOException {
    UnifiedMemoryManager mm = memory(16);
    PrefetchMemory memory = prefetch(mm, DecodeWindow.Kind.MAPPED, 4, dir);
    assertEquals(0, files(dir), "no file before a window is asked for");
    assertEquals(4 * (64 << 10), memory.window().get().bytes());
    assertEquals(1, files(dir));
    memory.close();
    assertEquals(0, files(dir));
    assertEquals(0, mm.executionMemoryUsed());
  }

  @Test
  void stagingComesInWholeMebibytesAndFitsLaterRanges(@TempDir Path dir) {
    UnifiedMemoryManager mm = memory(16);
    PrefetchMemory memory = prefetch(mm, DecodeWindow.Kind.DIRECT, 2, dir);
    ByteBuffer b = memory.staging(MIB + 1).get();
    assertTrue(b.isDirect());
    assertEquals(2 * MIB, b.capacity());
    assertEquals(2L * MIB, mm.executionMemoryUsed());

    memory.giveBackStaging(b);
    assertSame(b, memory.staging(MIB / 2).get(), "an idle buffer that fits is reused");
    ByteBuffer larger = memory.staging(3 * MIB).get();
    assertEquals(3 * MIB, larger.capacity());
    assertEquals(5L * MIB, mm.executionMemoryUsed());
    assertTrue(memory.staging(12 * MIB).isEmpty(), "16 MiB in all, 5 taken");
    assertEquals(5L * MIB, mm.executionMemoryUsed());

    memory.close();
    assertEquals(0, mm.executionMemoryUsed());
  }

  @Test
  void heapCopiesAreOnHeapAndThoseLeftOpenAreFreedOnClose(@TempDir Path dir) {
    UnifiedMemoryManager mm = memory(16);
    PrefetchMemory memory = prefetch(mm, DecodeWindow.Kind.DIRECT, 2, dir);
    assertTrue(memory.reserveHeapCopy(3 * MIB));
    assertTrue(memory.reserveHeapCopy(MIB));
    assertEquals(4L * MIB, mm.onHeapExecutionMemoryUsed());
    memory.releaseHeapCopy(MIB);
    assertEquals(3L * MIB, mm.onHeapExecutionMemoryUsed());
    assertFalse(memory.reserveHeapCopy(14 * MIB), "more than is left");
    assertEquals(3L * MIB, mm.onHeapExecutionMemoryUsed());
    assertTrue(memory.reserveHeapCopy(0), "nothing to reserve");

    memory.close(); // a failed task's streams left one copy open
    assertEquals(0, mm.executionMemoryUsed());
  }
}
