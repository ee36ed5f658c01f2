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
package io.github.kaeshuffle.diagnostics;

/**
 * The time a thread has spent in waits it knows the reason of: a reduce task waiting for fetched
 * blocks, or for the blocks its decompressor works on ahead. A task that reads one shuffle while it
 * writes the next is off its core in these waits; auto's codec choice leaves them out of the time
 * it blames on the disk the task writes to (see docs/tuning.md). Per thread, so it needs no lock:
 * the reader adds on the task's thread and the writer reads there.
 */
public final class TaskWaits {
  private static final ThreadLocal<long[]> NANOS = ThreadLocal.withInitial(() -> new long[1]);

  private TaskWaits() {}

  /** Records that this thread has just waited {@code nanos} for its reader. */
  public static void add(long nanos) {
    if (nanos > 0) {
      NANOS.get()[0] += nanos;
    }
  }

  /** This thread's known waits so far, in nanoseconds; only differences mean anything. */
  public static long nanos() {
    return NANOS.get()[0];
  }
}
