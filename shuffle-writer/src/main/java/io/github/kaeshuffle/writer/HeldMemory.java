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

/**
 * The execution memory a {@link PartitionedBlockBuffer} holds, taken from its {@link MemoryBudget}:
 * every byte reserved is given back once, by {@link #release} or, at the end, {@link #releaseAll}.
 * Not thread-safe: one task's thread.
 */
final class HeldMemory {
  /** What frees memory when the budget says no: returns the bytes freed, 0 when nothing was. */
  interface Spill {
    long spill() throws IOException;
  }

  private final MemoryBudget budget;
  private final Spill spill;
  private long held;

  HeldMemory(MemoryBudget budget, Spill spill) {
    this.budget = budget;
    this.spill = spill;
  }

  /**
   * Reserves memory, spilling to make room when the budget says no. Returns false when it spilled
   * (the caller re-checks its state, which the spill changed, and asks again).
   */
  boolean reserve(long bytes) throws IOException {
    if (tryReserve(bytes)) {
      return true;
    }
    if (spill.spill() == 0) {
      throw new IOException(
          "KAE Shuffle's writer could not get "
              + bytes
              + " bytes of"
              + " execution memory even with nothing left to spill: give executors more memory"
              + " (spark.executor.memory) or use a smaller spark.shuffle.kae.blockSize.");
    }
    return false;
  }

  /**
   * Reserves memory if the budget grants it now, never spilling: for what could as well go to disk
   * (frames kept in memory, {@link FramePages}).
   */
  boolean tryReserve(long bytes) {
    long got = budget.acquire(bytes);
    if (got < bytes) {
      budget.release(got);
      return false;
    }
    held += got;
    return true;
  }

  /** Reserves what the buffer needs before its first byte, when there is nothing to spill yet. */
  void reserveOrFail(long bytes) {
    if (!tryReserve(bytes)) {
      throw new IllegalStateException(
          "KAE Shuffle's writer could not get the "
              + bytes
              + " bytes it needs for one frame: give executors more memory or use a smaller"
              + " spark.shuffle.kae.blockSize.");
    }
  }

  void release(long bytes) {
    budget.release(bytes);
    held -= bytes;
  }

  /** Gives back everything still held. Idempotent. */
  void releaseAll() {
    if (held > 0) {
      budget.release(held);
      held = 0;
    }
  }
}
