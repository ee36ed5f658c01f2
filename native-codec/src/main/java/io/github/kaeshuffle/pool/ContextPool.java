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
package io.github.kaeshuffle.pool;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * The bookkeeping of a pool of codec contexts ({@link EncoderPool}, {@link DecoderPool}): at most
 * {@code maxLive} contexts exist at once (on KAEzip each is a hardware session), at most {@code
 * maxIdle} returned ones are kept for reuse, the rest and those that must not be reused are closed.
 * A {@link #take} that finds the pool full waits up to {@code maxWaitNanos} for a context to come
 * back, then tells its caller to do without (in software). After {@link #close} whatever comes back
 * is closed. Thread-safe.
 */
final class ContextPool<T> {
  /**
   * What {@link #take} gives: an idle context, leave to make one, or neither (the pool is full).
   */
  static final class Take<T> {
    private final T idle;
    private final boolean mayMake;
    private final long waitedNanos;

    Take(T idle, boolean mayMake, long waitedNanos) {
      this.idle = idle;
      this.mayMake = mayMake;
      this.waitedNanos = waitedNanos;
    }

    T idle() {
      return idle;
    }

    boolean mayMake() {
      return mayMake;
    }

    long waitedNanos() {
      return waitedNanos;
    }

    boolean full() {
      return idle == null && !mayMake;
    }
  }

  private final int maxIdle;
  private final int maxLive;
  private final long maxWaitNanos;
  private final Consumer<T> closer;
  private final Deque<T> idle = new ArrayDeque<>();
  private int live;
  private long created;
  private boolean closed;

  /** A pool without a bound on live contexts (software codecs). */
  ContextPool(int maxIdle, Consumer<T> closer) {
    this(maxIdle, Integer.MAX_VALUE, 0, closer);
  }

  ContextPool(int maxIdle, int maxLive, long maxWaitNanos, Consumer<T> closer) {
    if (maxIdle < 0 || maxLive < 1 || maxWaitNanos < 0) {
      throw new IllegalArgumentException(
          "A context pool needs maxIdle >= 0, maxLive >= 1 and maxWaitNanos >= 0, not "
              + maxIdle
              + ", "
              + maxLive
              + ", "
              + maxWaitNanos);
    }
    this.maxIdle = Math.min(maxIdle, maxLive);
    this.maxLive = maxLive;
    this.maxWaitNanos = maxWaitNanos;
    this.closer = closer;
  }

  /**
   * The most recently returned idle context; else leave to make one (then {@link #made} or {@link
   * #notMade}); else, once the wait is over, neither. An interrupt ends the wait (the flag stays
   * set): the owner is being stopped and should not block on a context.
   */
  synchronized Take<T> take() {
    long t0 = System.nanoTime();
    long left = maxWaitNanos;
    while (true) {
      T item = idle.pollFirst();
      if (item != null) {
        return new Take<>(item, false, System.nanoTime() - t0);
      }
      if (live < maxLive) {
        live++;
        return new Take<>(null, true, System.nanoTime() - t0);
      }
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        return new Take<>(null, false, System.nanoTime() - t0);
      }
      try {
        wait(left / 1_000_000, (int) (left % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      left = maxWaitNanos - (System.nanoTime() - t0);
    }
  }

  /** The context a {@link #take} gave leave for was made. */
  synchronized void made() {
    created++;
  }

  /** The context a {@link #take} gave leave for could not be made: its place is free again. */
  synchronized void notMade() {
    live--;
    notifyAll();
  }

  /** Keeps {@code item} for reuse when it may be reused and there is room; else closes it. */
  void giveBack(T item, boolean reusable) {
    synchronized (this) {
      if (!closed && reusable && idle.size() < maxIdle) {
        idle.addFirst(item);
        notifyAll();
        return;
      }
    }
    try {
      closer.accept(item);
    } finally {
      synchronized (this) {
        live--;
        notifyAll();
      }
    }
  }

  /** Contexts made so far. */
  synchronized long created() {
    return created;
  }

  /** Contexts that exist now: lent out or idle. */
  synchronized int live() {
    return live;
  }

  /** Closes the idle contexts; contexts still lent out are closed when they come back. */
  synchronized void close() {
    closed = true;
    idle.forEach(closer);
    live -= idle.size();
    idle.clear();
    notifyAll();
  }
}
