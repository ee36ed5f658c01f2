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
 * bound, the kernel holds writers back and it grows to about the disk's time per byte. Where the
 * disk is behind by more than it writes in a while, the disk's time per byte is owed for every
 * stored byte before any task waits for it ({@link #owe}), and the cost is never below it. Shared
 * by every shuffle of the executor: a disk does not change with the data. Thread-safe.
 */
public final class DiskCost {
  /**
   * What each earlier task keeps of its weight in the lasting rate: after fourteen tasks about
   * half, where the recent rate keeps 2%.
   */
  static final double LASTING_KEEP = 0.95;

  private final DecayedRate rate = new DecayedRate();
  private final DecayedRate lasting = new DecayedRate(LASTING_KEEP);
  private double owed;

  /**
   * Adds one map task's time in its disk writes and the bytes of output it wrote, charged at least
   * what is owed for them: a disk that caught up a moment ago is not cheap for the tasks that
   * follow.
   */
  public synchronized void add(long diskNanos, long storedBytes) {
    if (storedBytes > 0) {
      long charged = Math.max(diskNanos, (long) (owed * storedBytes));
      rate.add(charged, storedBytes);
      lasting.add(charged, storedBytes);
    }
  }

  /**
   * What a stored byte costs while the disk is that far behind: its time per byte for each task
   * writing to it; 0 once it is not.
   */
  public synchronized void owe(double nanosPerByte) {
    owed = nanosPerByte;
  }

  /** Whether the recent tasks wrote at least {@code least} bytes, or the disk is behind. */
  synchronized boolean covers(long least) {
    return rate.covers(least) || owed > 0;
  }

  /**
   * Nanoseconds of disk time per stored byte over the recent tasks, or what is owed where that is
   * more; 0 before any task wrote.
   */
  public synchronized double nanosPerByte() {
    return Math.max(rate.costPerByte(), owed);
  }

  /**
   * The disk's cost over a longer run of tasks, or the recent one where that is higher: what a byte
   * more costs once the page cache has to give back what it took. A few tasks whose writes the page
   * cache took at once lower the recent cost for a moment; every byte they stored still reaches the
   * disk while the stage runs.
   */
  public synchronized double lastingNanosPerByte() {
    return Math.max(nanosPerByte(), lasting.costPerByte());
  }
}
