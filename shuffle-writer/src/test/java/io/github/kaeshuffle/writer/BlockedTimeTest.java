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
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.kaeshuffle.diagnostics.TaskWaits;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BlockedTimeTest {
  private static final long MS = 1_000_000L;

  @Test
  void aSleepIsBlockedTimeAndWorkIsNot() throws Exception {
    assumeTrue(Files.isReadable(Paths.get("/proc/thread-self/schedstat")), "no schedstat here");
    BlockedTime sleeping = new BlockedTime();
    Thread.sleep(200);
    long slept = sleeping.nanos();
    assertTrue(slept >= 150 * MS && slept < 1000 * MS, "blocked " + slept / MS + " ms");

    BlockedTime working = new BlockedTime();
    long start = System.nanoTime();
    long x = 0;
    while (System.nanoTime() - start < 200 * MS) {
      x += x * 31 + 7;
    }
    // On a busy machine the thread also waits for a core: that is not blocked time either.
    assertTrue(working.nanos() < 100 * MS, "blocked " + working.nanos() / MS + " ms, " + x);
  }

  @Test
  void theReadersWaitsAreNotBlockedTime() throws Exception {
    assumeTrue(Files.isReadable(Paths.get("/proc/thread-self/schedstat")), "no schedstat here");
    BlockedTime reading = new BlockedTime();
    long t0 = System.nanoTime();
    Thread.sleep(200);
    TaskWaits.add(System.nanoTime() - t0);
    assertTrue(reading.nanos() < 50 * MS, "blocked " + reading.nanos() / MS + " ms");
    Thread.sleep(100);
    assertTrue(reading.nanos() >= 75 * MS, "a wait it was not told of still counts");
  }

  @Test
  void waitsAreCountedPerThread() throws Exception {
    long mine = TaskWaits.nanos();
    Thread other = new Thread(() -> TaskWaits.add(5 * MS));
    other.start();
    other.join();
    assertEquals(mine, TaskWaits.nanos());
  }

  @Test
  void anotherThreadReadsNothing() throws Exception {
    BlockedTime mine = new BlockedTime();
    AtomicLong seen = new AtomicLong(-1);
    Thread other = new Thread(() -> seen.set(mine.nanos()));
    other.start();
    other.join();
    assertEquals(0, seen.get());
  }
}
