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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DiskCostTest {
  @Test
  void nothingWrittenCostsNothing() {
    DiskCost c = new DiskCost();
    assertEquals(0, c.nanosPerByte());
    c.add(1_000_000, 0); // a task that stored nothing says nothing of the disk
    assertEquals(0, c.nanosPerByte());
    assertFalse(c.covers(1));
  }

  @Test
  void tasksWeighByTheirBytes() {
    DiskCost c = new DiskCost();
    c.add(100, 100); // 1 ns per byte
    c.add(3000, 1000); // 3 ns per byte, ten times the bytes
    double expected = (100 * DecayedRate.KEEP + 3000) / (100 * DecayedRate.KEEP + 1000);
    assertEquals(expected, c.nanosPerByte(), 1e-9);
    assertTrue(c.covers(1000));
  }

  @Test
  void oldTasksFade() {
    DiskCost c = new DiskCost();
    c.add(20_000, 1000); // a slow disk once
    for (int i = 0; i < 40; i++) {
      c.add(1000, 1000); // then 1 ns per byte
    }
    assertEquals(1.0, c.nanosPerByte(), 0.01, "forty tasks later the slow one is gone");
    assertFalse(c.covers(10_000), "the decayed bytes are under four tasks' worth");
    assertTrue(c.covers(3_000));
  }

  @Test
  void theLastingCostRemembersASlowDiskLongerAndNeverUndercutsTheRecentOne() {
    DiskCost c = new DiskCost();
    for (int i = 0; i < 10; i++) {
      c.add(20_000, 1000); // 20 ns per byte
    }
    for (int i = 0; i < 8; i++) {
      c.add(1000, 1000); // then 1 ns per byte for a few tasks
    }
    assertTrue(c.nanosPerByte() < 5, "recent: " + c.nanosPerByte());
    assertTrue(c.lastingNanosPerByte() > 8, "lasting: " + c.lastingNanosPerByte());
    for (int i = 0; i < 100; i++) {
      c.add(1000, 1000);
    }
    assertEquals(1.0, c.lastingNanosPerByte(), 0.05, "a hundred tasks later it has followed");
    c.add(50_000, 1000); // the disk slows again: the recent cost rises first
    assertEquals(c.nanosPerByte(), c.lastingNanosPerByte(), 1e-9);
  }

  @Test
  void aDiskBehindChargesWhatIsOwedAndItFadesOnceCaughtUp() {
    DiskCost c = new DiskCost();
    c.owe(170); // the page cache holds more than the disk writes in a while
    assertTrue(c.covers(1L << 20), "known before any task wrote");
    assertEquals(170, c.nanosPerByte());
    for (int i = 0; i < 10; i++) {
      c.add(1000, 1000); // the tasks' writes returned at the speed of a copy: charged 170
    }
    c.owe(0); // caught up
    assertEquals(170, c.nanosPerByte(), 1e-9, "the tasks charged keep it");
    for (int i = 0; i < 20; i++) {
      c.add(1000, 1000);
    }
    assertTrue(c.nanosPerByte() < 2, "recent: " + c.nanosPerByte());
    assertTrue(c.lastingNanosPerByte() > 20, "lasting: " + c.lastingNanosPerByte());
    c.add(5_000_000, 1000); // a task that waited far longer than what is owed
    c.owe(170);
    assertTrue(c.nanosPerByte() > 170, "the waits where they are more: " + c.nanosPerByte());
  }

  @Test
  void whatIsOwedRisesWithHowFarBehindTheDiskIs() {
    double rate = 5e6; // 5 MB/s: 200 ns per byte
    assertEquals(0, DiskCost.owedNanos(rate, 100_000_000, 1), "20 s behind");
    assertEquals(0, DiskCost.owedNanos(rate, 150_000_000, 1), "30 s behind");
    assertEquals(100, DiskCost.owedNanos(rate, 375_000_000, 1), 1e-9, "75 s: half");
    assertEquals(200, DiskCost.owedNanos(rate, 600_000_000, 1), 1e-9, "120 s: all of it");
    assertEquals(200, DiskCost.owedNanos(rate, 6_000_000_000L, 1), 1e-9, "never more");
    assertEquals(400, DiskCost.owedNanos(rate, 600_000_000, 2), 1e-9, "for each writer");
    assertEquals(200, DiskCost.owedNanos(rate, 600_000_000, 0), 1e-9, "at least one writer");
    assertEquals(0, DiskCost.owedNanos(0, 600_000_000, 1), "a rate not measured");
  }
}
