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

/** Where a writer's buffers get their memory: Spark's task memory manager, or a test's budget. */
public interface MemoryBudget {
  /** Asks for {@code bytes}; returns how many were granted (possibly fewer, possibly 0). */
  long acquire(long bytes);

  void release(long bytes);

  /**
   * Whether the memory granted is the Java heap's (Spark's on-heap execution memory, its default)
   * rather than off the heap: where the writer's pages of small raw buffers are made.
   */
  default boolean onHeap() {
    return true;
  }
}
