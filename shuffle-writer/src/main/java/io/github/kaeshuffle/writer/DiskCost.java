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

/**
 * What a stored byte costs the map tasks of this executor in time spent on its disks: writing
 * frames, reading parked bytes back, writing and committing the map output, per byte of output. On
 * a host whose page cache takes every write this is the cost of a copy; where the disk is the
 * bound, the kernel holds writers back and it grows to about the disk's time per byte. Shared by
 * every shuffle of the executor: a disk does not change with the data. Thread-safe.
 */
public final class DiskCost {
  /**
   * What each earlier task keeps of its weight in the lasting rate: after fourteen tasks about
   * half, where the recent rate keeps 2%.
   */
  static final double LASTING_KEEP = 0.95;

  private final DecayedRate rate = new DecayedRate();
  private final DecayedRate lasting = new DecayedRate(LASTING_KEEP);

  /** Adds one map task's time in its disk writes and the bytes of output it wrote. */
  public synchronized void add(long diskNanos, long storedBytes) {
    if (storedBytes > 0) {
      rate.add(diskNanos, storedBytes);
      lasting.add(diskNanos, storedBytes);
    }
  }

  /** Whether the recent tasks wrote at least {@code least} bytes. */
  synchronized boolean covers(long least) {
    return rate.covers(least);
  }

  /** Nanoseconds of disk time per stored byte over the recent tasks; 0 before any task wrote. */
  public synchronized double nanosPerByte() {
    return rate.costPerByte();
  }

  /**
   * The disk's cost over a longer run of tasks, or the recent one where that is higher: what a byte
   * more costs once the page cache has to give back what it took. A few tasks whose writes the page
   * cache took at once lower the recent cost for a moment; every byte they stored still reaches the
   * disk while the stage runs.
   */
  public synchronized double lastingNanosPerByte() {
    return Math.max(rate.costPerByte(), lasting.costPerByte());
  }
}
