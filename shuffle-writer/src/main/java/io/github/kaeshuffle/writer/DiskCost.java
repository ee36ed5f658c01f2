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
 * disk is behind by more than it writes in a while, up to its time per byte is owed for every
 * stored byte before any task waits for it ({@link #owedNanos}, {@link #owe}), and the cost is
 * never below that. Shared by every shuffle of the executor: a disk does not change with the data.
 * Thread-safe.
 */
public final class DiskCost {
  /**
   * What each earlier task keeps of its weight in the lasting rate: after fourteen tasks about
   * half, where the recent rate keeps 2%.
   */
  static final double LASTING_KEEP = 0.95;

  /**
   * How far behind the disk may be, in seconds of its writing, before a stored byte costs anything
   * on it: the kernel writes a page back once dirty this long (`vm.dirty_expire_centisecs`).
   */
  static final double BEHIND_SECONDS = 30;

  /**
   * How far behind, in seconds of its writing, a stored byte costs the disk's whole time for it:
   * between the two the cost rises in proportion, as the further behind the disk is, the sooner it
   * bounds the stage; a short job whose writes the page cache holds a little longer than {@link
   * #BEHIND_SECONDS} ends first.
   */
  static final double FULL_SECONDS = 120;

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

  /** What a stored byte costs while the disk is behind ({@link #owedNanos}); 0 once it is not. */
  public synchronized void owe(double nanosPerByte) {
    owed = nanosPerByte;
  }

  /**
   * What a stored byte costs, in nanoseconds, on a disk that writes {@code bytesPerSecond} while
   * {@code waitingBytes} wait for it and {@code writers} tasks write to it: 0 up to {@link
   * #BEHIND_SECONDS} of its writing behind, its whole time per byte for each writer from {@link
   * #FULL_SECONDS}, in proportion between; 0 where the rate is not known.
   */
  static double owedNanos(double bytesPerSecond, long waitingBytes, int writers) {
    if (bytesPerSecond <= 0) {
      return 0;
    }
    double behind = waitingBytes / bytesPerSecond;
    double share = (behind - BEHIND_SECONDS) / (FULL_SECONDS - BEHIND_SECONDS);
    return Math.max(0, Math.min(1, share)) * Math.max(1, writers) * 1e9 / bytesPerSecond;
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
