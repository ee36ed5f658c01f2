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

/** The recent map tasks' time per byte that {@code auto}'s policy decides by. */
class DecayedRateTest {

  @Test
  void noRateBeforeAnyByte() {
    DecayedRate rate = new DecayedRate();
    assertTrue(Double.isNaN(rate.perByte()));
    rate.add(5_000, 0);
    assertTrue(Double.isNaN(rate.perByte()), "time without bytes is no rate");
    assertFalse(rate.covers(1));
  }

  @Test
  void aTaskWeighsByItsBytes() {
    DecayedRate rate = new DecayedRate(1.0);
    rate.add(100, 10);
    rate.add(1_000, 1_000);
    // Not the mean of 10 and 1 ns/B: the large task dominates.
    assertEquals(1_100.0 / 1_010, rate.perByte(), 1e-12);
  }

  @Test
  void earlierTasksFade() {
    DecayedRate rate = new DecayedRate();
    rate.add(10_000, 1_000);
    for (int i = 0; i < 10; i++) {
      rate.add(1_000, 1_000);
    }
    double slowWeight = Math.pow(DecayedRate.KEEP, 10);
    double fastWeight = (1 - slowWeight) / (1 - DecayedRate.KEEP);
    double expected =
        (10_000 * slowWeight + 1_000 * fastWeight) / (1_000 * (slowWeight + fastWeight));
    assertEquals(expected, rate.perByte(), 1e-12);
    assertTrue(slowWeight < 0.06, "after ten tasks a task keeps 6% of its weight");
    // Ten times slower, ten tasks ago: it moves the rate by 13%, not ninefold.
    assertTrue(rate.perByte() < 1.15, "the slow task has not faded: " + rate.perByte());
  }

  @Test
  void coversCountsTheDecayedBytes() {
    DecayedRate rate = new DecayedRate();
    rate.add(0, 1_000);
    assertTrue(rate.covers(1_000));
    rate.add(0, 0);
    assertTrue(rate.covers(750));
    assertFalse(rate.covers(751), "a task with no bytes still ages the others");
  }
}
