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
package io.github.kaeshuffle.format;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * The idle half of a pool of codec contexts ({@link EncoderPool}, {@link DecoderPool}): keeps at
 * most {@code maxIdle} returned items for reuse, closes the rest and those that must not be reused,
 * counts the items made, and after {@link #close} closes whatever comes back. Thread-safe.
 */
final class IdlePool<T> {
  private final int maxIdle;
  private final Consumer<T> closer;
  private final Deque<T> idle = new ArrayDeque<>();
  private long created;
  private boolean closed;

  IdlePool(int maxIdle, Consumer<T> closer) {
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle cannot be negative: " + maxIdle);
    }
    this.maxIdle = maxIdle;
    this.closer = closer;
  }

  /** The most recently returned idle item, or null when there is none. */
  synchronized T poll() {
    return idle.pollFirst();
  }

  /** Counts an item its owner made because none was idle. */
  synchronized void made() {
    created++;
  }

  /** Keeps {@code item} for reuse when it may be reused and there is room; else closes it. */
  void giveBack(T item, boolean reusable) {
    synchronized (this) {
      if (!closed && reusable && idle.size() < maxIdle) {
        idle.addFirst(item);
        return;
      }
    }
    closer.accept(item);
  }

  synchronized long created() {
    return created;
  }

  /** Closes the idle items; items still lent out are closed when they come back. */
  synchronized void close() {
    closed = true;
    idle.forEach(closer);
    idle.clear();
  }
}
