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

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The writer's tests' memory budget: grants up to {@code limit} bytes outstanding, and counts what
 * is out, the most ever out and the requests.
 */
final class LimitedBudget implements MemoryBudget {
  final long limit;
  long used;
  long peak;
  int asked;

  LimitedBudget(long limit) {
    this.limit = limit;
  }

  /** Bytes it could still grant. */
  long free() {
    return limit - used;
  }

  @Override
  public long acquire(long bytes) {
    asked++;
    long got = Math.min(bytes, limit - used);
    used += got;
    peak = Math.max(peak, used);
    return got;
  }

  @Override
  public void release(long bytes) {
    used -= bytes;
    assertTrue(used >= 0, "released more than acquired");
  }
}
