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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Whether the kernel is holding back this process's writes: its dirty and writeback pages near the
 * limit that applies to it, the machine's (`vm.dirty_*`: writers are throttled past the midpoint of
 * the background and the hard limit) or its memory cgroup's (a full cgroup reclaims by waiting for
 * its pages' writeback). Only then is a map task's time blocked in the kernel the disk's cost:
 * otherwise it waited for something else (class loading, locks, input files, a broadcast). Read at
 * most every {@link #REFRESH_NANOS}; false where the files cannot be read. Once seen, pressure
 * counts for {@link #HOLD_NANOS} more: deleting a task's finished files or a burst of writeback
 * drops the dirty pages below the mark for a moment while the disk stays the bound. Thread-safe.
 */
final class WritebackPressure {
  static final long REFRESH_NANOS = 200_000_000L;

  /** How long pressure, once seen, counts. */
  static final long HOLD_NANOS = 10_000_000_000L;

  /** A cgroup counts as behind when this share of its memory limit waits for the disk. */
  static final double CGROUP_SHARE = 0.10;

  private final Path root;
  private final LongSupplier clock;
  private long readAt = Long.MIN_VALUE;
  private long seenAt = Long.MIN_VALUE;
  private long waiting;

  /**
   * @param root where /proc and /sys are (a fake tree in tests)
   */
  WritebackPressure(Path root) {
    this(root, System::nanoTime);
  }

  /** With {@code clock} for {@link System#nanoTime}, for tests. */
  WritebackPressure(Path root, LongSupplier clock) {
    this.root = root;
    this.clock = clock;
  }

  static WritebackPressure system() {
    return new WritebackPressure(Paths.get("/"));
  }

  /** Whether the kernel holds writes back now or did within the last {@link #HOLD_NANOS}. */
  synchronized boolean behind() {
    long now = clock.getAsLong();
    if (readAt == Long.MIN_VALUE || now - readAt > REFRESH_NANOS) {
      readAt = now;
      if (machineBehind() || cgroupBehind()) {
        seenAt = now;
      }
    }
    return seenAt != Long.MIN_VALUE && now - seenAt <= HOLD_NANOS;
  }

  /**
   * The machine's dirty and writeback bytes when {@link #behind} last read them: what its disks
   * still have to write.
   */
  synchronized long waitingBytes() {
    return waiting;
  }

  private boolean machineBehind() {
    Map<String, Long> mem = keyValues(root.resolve("proc/meminfo"), 1024);
    waiting = mem.getOrDefault("Dirty:", 0L) + mem.getOrDefault("Writeback:", 0L);
    long dirtyable =
        mem.getOrDefault("MemFree:", 0L)
            + mem.getOrDefault("Active(file):", 0L)
            + mem.getOrDefault("Inactive(file):", 0L);
    long limit = threshold("dirty_bytes", "dirty_ratio", dirtyable);
    long background = threshold("dirty_background_bytes", "dirty_background_ratio", dirtyable);
    long freerun = (limit + background) / 2;
    return waiting > 0 && freerun > 0 && waiting >= freerun / 2;
  }

  private long threshold(String bytes, String ratio, long dirtyable) {
    long b = number(root.resolve("proc/sys/vm/" + bytes));
    return b > 0 ? b : dirtyable / 100 * Math.max(0, number(root.resolve("proc/sys/vm/" + ratio)));
  }

  /** Cgroup v1's memory controller, or v2's unified hierarchy, of this process. */
  private boolean cgroupBehind() {
    for (String line : lines(root.resolve("proc/self/cgroup"))) {
      String[] f = line.split(":", 3);
      if (f.length < 3 || f[2].isEmpty()) {
        continue;
      }
      String path = f[2].substring(1);
      if (f[1].equals("memory") || f[1].contains(",memory")) {
        Path dir = root.resolve("sys/fs/cgroup/memory").resolve(path);
        return cgroupBehind(dir, "dirty", "writeback", "memory.limit_in_bytes");
      }
      if (f[0].equals("0") && f[1].isEmpty()) {
        Path dir = root.resolve("sys/fs/cgroup").resolve(path);
        if (cgroupBehind(dir, "file_dirty", "file_writeback", "memory.max")) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean cgroupBehind(Path dir, String dirty, String writeback, String limitFile) {
    long limit = number(dir.resolve(limitFile));
    if (limit <= 0 || limit >= (1L << 60)) {
      return false; // unlimited: the machine's limits apply
    }
    Map<String, Long> stat = keyValues(dir.resolve("memory.stat"), 1);
    long pages = stat.getOrDefault(dirty, 0L) + stat.getOrDefault(writeback, 0L);
    return pages >= limit * CGROUP_SHARE;
  }

  /** "name value [kB]" lines, values times {@code unit}. */
  private static Map<String, Long> keyValues(Path file, long unit) {
    Map<String, Long> m = new HashMap<>();
    for (String line : lines(file)) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 2) {
        try {
          m.put(f[0], Long.parseLong(f[1]) * unit);
        } catch (NumberFormatException e) {
          // not a count
        }
      }
    }
    return m;
  }

  /** The file's number, 0 where missing or not a number ("max"). */
  private static long number(Path file) {
    List<String> l = lines(file);
    try {
      return l.isEmpty() ? 0 : Long.parseLong(l.get(0).trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException | RuntimeException e) {
      return Collections.emptyList();
    }
  }
}
