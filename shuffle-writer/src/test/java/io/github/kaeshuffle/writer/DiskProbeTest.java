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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk probe on this machine's disk: a rate, its file gone, measured once. */
class DiskProbeTest {
  @TempDir Path dir;

  @Test
  void measuresTheDiskOnceAndLeavesNoFile() {
    Path file = dir.resolve("probe");
    AtomicInteger asked = new AtomicInteger();
    DiskProbe probe =
        new DiskProbe(
            () -> {
              asked.incrementAndGet();
              return file;
            });
    assertEquals(0, probe.bytesPerSecond(), "nothing measured yet");
    probe.startOnce(Runnable::run);
    probe.startOnce(Runnable::run);
    assertEquals(1, asked.get(), "once per executor");
    assertTrue(probe.bytesPerSecond() > 1e5, "a rate: " + probe.bytesPerSecond());
    assertFalse(Files.exists(file));
  }

  @Test
  void aDiskThatCannotBeWrittenIsUnknown() {
    DiskProbe probe = new DiskProbe(() -> dir.resolve("missing/probe"));
    assertEquals(0, probe.measure());
    DiskProbe noDir =
        new DiskProbe(
            () -> {
              throw new IllegalStateException("no local directory");
            });
    assertEquals(0, noDir.measure());
  }

  @Test
  void anExecutorShutDownLeavesItUnmeasured() {
    DiskProbe probe = new DiskProbe(() -> dir.resolve("probe"));
    probe.startOnce(
        r -> {
          throw new java.util.concurrent.RejectedExecutionException("shut down");
        });
    assertEquals(0, probe.bytesPerSecond());
  }
}
