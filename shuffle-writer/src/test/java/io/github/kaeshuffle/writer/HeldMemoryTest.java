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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class HeldMemoryTest {
  @Test
  void everyByteReservedIsGivenBackOnce() throws IOException {
    LimitedBudget b = new LimitedBudget(100);
    HeldMemory m = new HeldMemory(b, () -> 0);
    assertTrue(m.reserve(60));
    m.reserveOrFail(30);
    assertEquals(10, b.free());
    m.release(20);
    assertEquals(30, b.free());
    m.releaseAll();
    m.releaseAll();
    assertEquals(100, b.free(), "releaseAll gives back the rest, once");
  }

  @Test
  void aShortBudgetSpillsAndAsksTheCallerToTryAgain() throws IOException {
    LimitedBudget b = new LimitedBudget(100);
    HeldMemory m = new HeldMemory(b, () -> 0);
    assertTrue(m.reserve(80));
    int[] spills = {0};
    HeldMemory other =
        new HeldMemory(
            b,
            () -> {
              spills[0]++;
              m.release(80); // what a spill frees goes back to the budget
              return 80;
            });
    assertFalse(other.reserve(50), "spilled: the caller re-checks and asks again");
    assertEquals(1, spills[0]);
    assertEquals(100, b.free(), "the partial grant went back before the spill");
    assertTrue(other.reserve(50));
    other.releaseAll();
    assertEquals(100, b.free());
  }

  @Test
  void nothingLeftToSpillIsAnErrorThatSaysWhatToChange() throws IOException {
    LimitedBudget b = new LimitedBudget(10);
    HeldMemory m = new HeldMemory(b, () -> 0);
    IOException e = assertThrows(IOException.class, () -> m.reserve(20));
    assertTrue(e.getMessage().contains("spark.executor.memory"), e.getMessage());
    assertEquals(10, b.free(), "nothing kept from a refused reservation");
    assertThrows(IllegalStateException.class, () -> m.reserveOrFail(20));
    assertEquals(10, b.free());
  }
}
