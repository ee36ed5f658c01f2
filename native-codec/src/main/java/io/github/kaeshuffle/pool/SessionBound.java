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

import io.github.kaeshuffle.codec.BlockCodec;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How many hardware sessions a pool may hold open at once, per direction and process, and how long
 * a borrower waits for a busy one before it works in software instead. Only hardware codecs are
 * bounded: software contexts are cheap and never wait. KAEzip opens a hardware session with an 8
 * MiB staging buffer per context, and the engine has a few contexts per process: more sessions than
 * task slots buy nothing but memory and queue slots other processes on the node need.
 *
 * @param maxSessions most hardware contexts alive at once (lent or idle), at least 1
 * @param maxWaitNanos how long a borrower waits when all are lent; 0 goes to software at once
 */
public final class SessionBound {
  /** No bound: every borrower that finds no idle context opens one. */
  public static final SessionBound NONE = new SessionBound(Integer.MAX_VALUE, 0);

  private final int maxSessions;
  private final long maxWaitNanos;

  public SessionBound(int maxSessions, long maxWaitNanos) {
    if (maxSessions < 1) {
      throw new IllegalArgumentException("maxSessions must be at least 1, not " + maxSessions);
    }
    if (maxWaitNanos < 0) {
      throw new IllegalArgumentException("maxWaitNanos cannot be negative: " + maxWaitNanos);
    }
    this.maxSessions = maxSessions;
    this.maxWaitNanos = maxWaitNanos;
  }

  public int maxSessions() {
    return maxSessions;
  }

  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  /** A pool's bookkeeping for contexts of {@code codec}: bounded only when it is hardware. */
  <T> ContextPool<T> pool(BlockCodec codec, int maxIdle, Consumer<T> closer) {
    return codec != null && codec.hardware()
        ? new ContextPool<>(maxIdle, maxSessions, maxWaitNanos, closer)
        : new ContextPool<>(maxIdle, closer);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof SessionBound)) {
      return false;
    }
    SessionBound o = (SessionBound) other;
    return maxSessions == o.maxSessions && maxWaitNanos == o.maxWaitNanos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxSessions, maxWaitNanos);
  }

  @Override
  public String toString() {
    return "SessionBound[" + "maxSessions=" + maxSessions + ", maxWaitNanos=" + maxWaitNanos + "]";
  }
}
