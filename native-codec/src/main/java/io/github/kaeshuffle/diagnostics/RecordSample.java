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

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The shuffle doctor's measure of one per-record operation (serializing, deserializing: see
 * docs/tuning.md), taken on one record in {@link #SAMPLE_EVERY} and scaled to every record, so
 * measuring costs two clock reads per {@value #SAMPLE_EVERY} records. The exactly measured time
 * nested in a sample (codec calls, disk writes, fetches: a running total given as {@code excluded})
 * is left out of it. The estimate never exceeds the time since the first record less that exact
 * time: scaling one unlucky sample by {@value #SAMPLE_EVERY} must not claim more time than passed.
 * Not thread-safe: one task's thread.
 */
public final class RecordSample {
  /** One record in this many is timed. A power of two. */
  public static final int SAMPLE_EVERY = 32;

  /**
   * A sample longer than this and than {@link #OUTLIER_FACTOR} times the mean so far is left out:
   * it caught the thread descheduled (more runnable threads than cores) or in a GC pause, which
   * scaling by {@link #SAMPLE_EVERY} would blow up. That time stays in the task's other time. Well
   * under a scheduler's time slice (0.75 ms and up), so that a sample that lost its core for one
   * slice is caught.
   */
  static final long OUTLIER_NANOS = 200_000L;

  static final int OUTLIER_FACTOR = 50;

  /**
   * What a sample's own clock reads add to it, measured once per JVM (the median of back-to-back
   * reads) and taken off every sample: for records of a few hundred nanoseconds it is not small.
   */
  static final long CLOCK_NANOS = clockNanos();

  /** Samples held until there are enough to judge outliers by their median. */
  private static final int FIRST = 16;

  private final LongSupplier excluded;
  private long[] first = new long[FIRST];
  private long records;
  private long nanos;
  private long count;
  private long start;
  private long excludedAtStart;
  private boolean running;
  private boolean opened;
  private long openedAt;
  private long excludedAtOpen;

  /**
   * @param excluded running total of the exactly measured nanoseconds to leave out
   */
  public RecordSample(LongSupplier excluded) {
    this.excluded = excluded;
  }

  private static long clockNanos() {
    long[] d = new long[2001];
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < d.length; i++) {
        long t = System.nanoTime();
        d[i] = System.nanoTime() - t;
      }
    }
    Arrays.sort(d);
    return d[d.length / 2];
  }

  /**
   * Before the next record's operation; starts timing on the 32nd, 64th, ... record (never the
   * first, whose time carries one-time set-up: a serializer instance, the first fetch). Calling it
   * again before {@link #end} changes nothing.
   */
  public void begin() {
    if (!opened) {
      opened = true;
      excludedAtOpen = excluded.getAsLong();
      openedAt = System.nanoTime();
    }
    if (!running && (records & (SAMPLE_EVERY - 1)) == SAMPLE_EVERY - 1) {
      running = true;
      excludedAtStart = excluded.getAsLong();
      start = System.nanoTime();
    }
  }

  /** After the record's operation: counts the record, and the sample if one was running. */
  public void end() {
    records++;
    if (running) {
      long elapsed = System.nanoTime() - start - CLOCK_NANOS;
      elapsed = Math.max(0L, elapsed - (excluded.getAsLong() - excludedAtStart));
      running = false;
      if (first != null) {
        first[(int) count++] = elapsed;
        if (count == FIRST) {
          judgeFirst();
        }
      } else if (elapsed <= OUTLIER_NANOS || elapsed <= OUTLIER_FACTOR * (nanos / count)) {
        nanos += elapsed;
        count++;
      }
    }
  }

  /** Keeps the first samples that are not outliers against their median. */
  private void judgeFirst() {
    long[] held = Arrays.copyOf(first, (int) count);
    first = null;
    long[] sorted = held.clone();
    Arrays.sort(sorted);
    long median = sorted[sorted.length / 2];
    count = 0;
    for (long e : held) {
      if (e <= OUTLIER_NANOS || e <= OUTLIER_FACTOR * Math.max(1L, median)) {
        nanos += e;
        count++;
      }
    }
  }

  /**
   * Estimated time of the operation over every record ended so far (0 when none sampled), at most
   * the time since the first record less the exactly measured time since.
   */
  public long estimate() {
    if (first != null && count > 0) {
      judgeFirst();
    }
    if (count == 0) {
      return 0L;
    }
    long passed = System.nanoTime() - openedAt - (excluded.getAsLong() - excludedAtOpen);
    return Math.min((long) ((double) nanos / count * records), Math.max(0L, passed));
  }
}
