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

import io.github.kaeshuffle.diagnostics.TaskWaits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The time a map task's thread spent blocked in the kernel: its wall time less its time on a core,
 * its time waiting for one (the kernel's schedstat) and the waits for its shuffle reader ({@link
 * TaskWaits}: those are the fetched shuffle's cost, not the cost of the disk this task writes to; a
 * fetch's on-core time taken off twice errs towards the cheap codec). Where a node's disk is the
 * bound its cost does not always show in write calls: under a memory cgroup, a thread that needs a
 * page while the cgroup's pages are dirty waits for their writeback in reclaim, wherever it
 * allocates, and the JVM's own pauses stretch the same way when a collection copies into pages the
 * cgroup must first reclaim, so they stay in: the time is only asked for while writes are held
 * back. Zero where Linux's schedstat cannot be read. Not thread-safe: one task's thread.
 */
final class BlockedTime {
  private static final Path SCHEDSTAT = Paths.get("/proc/thread-self/schedstat");

  private final Thread thread = Thread.currentThread();
  private final long wall = System.nanoTime();
  private final long[] sched = sched();
  private final long waits = TaskWaits.nanos();

  /**
   * Blocked nanoseconds of this thread since this was made, the JVM's pauses in them; 0 from
   * another thread.
   */
  long nanos() {
    long[] now = sched();
    if (Thread.currentThread() != thread || sched == null || now == null) {
      return 0;
    }
    long offCpu = (System.nanoTime() - wall) - (now[0] - sched[0]) - (now[1] - sched[1]);
    return Math.max(0, offCpu - (TaskWaits.nanos() - waits));
  }

  /** This thread's nanoseconds on a core and waiting for one, or null where not readable. */
  private static long[] sched() {
    try {
      List<String> lines = Files.readAllLines(SCHEDSTAT);
      String[] f = lines.get(0).trim().split("\\s+");
      return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
