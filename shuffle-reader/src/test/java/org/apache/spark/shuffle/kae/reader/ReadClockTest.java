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
package org.apache.spark.shuffle.kae.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.diagnostics.TaskWaits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import scala.collection.AbstractIterator;

/**
 * The reader's clock on its own: with the doctor off it wraps nothing but the fetcher (whose waits
 * the task always counts); with it on, fetching and decoding are timed exactly and deserializing is
 * estimated without them, never above the time that passed.
 */
class ReadClockTest {
  private static final long MS = 1_000_000L;

  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  /** {@code n} records, each taking {@code nanos} to produce. */
  private static AbstractIterator<Integer> records(int n, long nanos) {
    return new AbstractIterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        return i < n;
      }

      @Override
      public Integer next() {
        spin(nanos);
        return i++;
      }
    };
  }

  private static ReadSources none() {
    return new ReadSources(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
  }

  private static void drain(scala.collection.Iterator<?> it) {
    while (it.hasNext()) {
      it.next();
    }
  }

  @Test
  void withTheDoctorOffOnlyTheFetcherIsWrappedAndItsWaitsCount() throws IOException {
    ReadClock clock = new ReadClock(false);
    InputStream in = new ByteArrayInputStream(new byte[4]);
    AbstractIterator<Integer> it = records(3, 0L);
    assertSame(in, clock.decoding(in));
    assertSame(it, clock.deserializing(it));
    long before = TaskWaits.nanos();
    drain(clock.fetching(records(2, 2 * MS)));
    assertTrue(TaskWaits.nanos() - before >= 4 * MS, "the task's known waits, doctor or not");
    ReadSources s = clock.addTo(none());
    assertTrue(s.fetchNanos() >= 4 * MS, "what the link costs, doctor or not: " + s);
    assertEquals(0L, s.decodeNanos(), "the doctor's other clocks are off: " + s);
  }

  @Test
  void fetchingAndDecodingAreTimedApart() throws IOException {
    ReadClock clock = new ReadClock(true);
    drain(clock.fetching(records(2, 2 * MS)));
    InputStream slow =
        new ByteArrayInputStream(new byte[3]) {
          @Override
          public synchronized int read() {
            spin(MS);
            return super.read();
          }
        };
    InputStream decoded = clock.decoding(slow);
    while (decoded.read() >= 0) {
      // three bytes, then the end: four reads of a millisecond each
    }
    decoded.close();
    ReadSources s = clock.addTo(none());
    assertTrue(s.fetchNanos() >= 4 * MS, "" + s);
    assertTrue(s.decodeNanos() >= 4 * MS, "" + s);
    assertEquals(0L, s.deserializeNanos(), "no record was read");
  }

  @Test
  void deserializingIsEstimatedWithinTheTimeThatPassed() {
    ReadClock clock = new ReadClock(true);
    long t0 = System.nanoTime();
    drain(clock.deserializing(records(256, 20_000L)));
    long estimate = clock.addTo(none()).deserializeNanos();
    // Read after the estimate, which is capped by the time up to its own call.
    long passed = System.nanoTime() - t0;
    assertTrue(estimate > 0 && estimate <= passed, estimate + " of " + passed);
  }
}
