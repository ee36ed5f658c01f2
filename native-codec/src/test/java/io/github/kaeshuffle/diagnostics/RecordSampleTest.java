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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The doctor's per-record sample: nothing before the first sampled record, outliers left out, and
 * never more than the time that passed less the exactly measured time.
 */
class RecordSampleTest {
  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  /** Runs `records` records through the sample, spinning `work(i)` nanoseconds in record i. */
  private static void records(
      RecordSample s, int records, java.util.function.IntToLongFunction work) {
    for (int i = 0; i < records; i++) {
      s.begin();
      spin(work.applyAsLong(i));
      s.end();
    }
  }

  @Test
  void nothingIsEstimatedBeforeTheFirstSampledRecord() {
    RecordSample s = new RecordSample(() -> 0L);
    records(s, RecordSample.SAMPLE_EVERY - 1, i -> 10_000L);
    assertEquals(0L, s.estimate());
  }

  @Test
  void aLongSampleAmongShortOnesIsLeftOut() {
    RecordSample s = new RecordSample(() -> 0L);
    int n = 16 * RecordSample.SAMPLE_EVERY;
    // The 8th sampled record is a pause past both limits, even against a cold JVM's median (tens of
    // microseconds of interpreted code per sample); the others take nothing.
    long outlier = 50_000_000L;
    records(s, n, i -> i == 8 * RecordSample.SAMPLE_EVERY - 1 ? outlier : 0L);
    // Kept, it would claim all the time that passed (the bound): at least the pause.
    assertTrue(s.estimate() < outlier / 2, "estimate " + s.estimate());
  }

  @Test
  void theEstimateNeverExceedsTheTimePassed() {
    long t0 = System.nanoTime();
    RecordSample s = new RecordSample(() -> 0L);
    // Two samples, one slow: scaled to 64 records they would claim 32 times what passed.
    records(
        s,
        2 * RecordSample.SAMPLE_EVERY,
        i -> i == RecordSample.SAMPLE_EVERY - 1 ? RecordSample.OUTLIER_NANOS / 2 : 0L);
    long estimate = s.estimate();
    long passed = System.nanoTime() - t0;
    assertTrue(estimate > 0 && estimate <= passed, estimate + " of " + passed);
  }

  @Test
  void exactlyMeasuredTimeInsideASampleIsLeftOut() {
    AtomicLong exact = new AtomicLong();
    RecordSample s = new RecordSample(exact::get);
    long t0 = System.nanoTime();
    // Every record spends 50 us in "codec" time, measured exactly, and nothing else.
    for (int i = 0; i < 4 * RecordSample.SAMPLE_EVERY; i++) {
      s.begin();
      long c = System.nanoTime();
      spin(50_000L);
      exact.addAndGet(System.nanoTime() - c);
      s.end();
    }
    long estimate = s.estimate();
    long passed = System.nanoTime() - t0;
    assertTrue(
        estimate <= passed - exact.get(),
        estimate + " with " + exact.get() + " exact of " + passed);
  }
}
