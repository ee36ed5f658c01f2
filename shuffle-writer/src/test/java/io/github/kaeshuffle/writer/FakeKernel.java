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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fake /proc and /sys trees under a root, as {@link WritebackPressure} reads them in tests. */
final class FakeKernel {
  private FakeKernel() {}

  /** Writes {@code text} to {@code file} under {@code root}, making its directories. */
  static void write(Path root, String file, String text) throws IOException {
    Path p = root.resolve(file);
    Files.createDirectories(p.getParent());
    Files.write(p, text.getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * A machine with 20 GB free or in files and the kernel's default ratios (limits 4 and 2 GB,
   * freerun 3 GB), {@code dirtyKb} and {@code writebackKb} waiting for its disks.
   */
  static void machine(Path root, long dirtyKb, long writebackKb) throws IOException {
    write(
        root,
        "proc/meminfo",
        "MemTotal: 24000000 kB\nMemFree: 18000000 kB\nActive(file): 1500000 kB\n"
            + "Inactive(file): 500000 kB\nDirty: "
            + dirtyKb
            + " kB\nWriteback: "
            + writebackKb
            + " kB\n");
    write(root, "proc/sys/vm/dirty_bytes", "0\n");
    write(root, "proc/sys/vm/dirty_ratio", "20\n");
    write(root, "proc/sys/vm/dirty_background_bytes", "0\n");
    write(root, "proc/sys/vm/dirty_background_ratio", "10\n");
  }
}
