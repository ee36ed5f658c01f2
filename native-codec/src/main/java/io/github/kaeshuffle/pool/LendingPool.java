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

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What {@link EncoderPool} and {@link DecoderPool} share: the contexts of the pool's codec (bounded
 * when it is hardware, {@link SessionBound}), the software ones lent in their place when every
 * hardware session is busy (never bounded), and how a context comes back: closed when it failed or
 * there is no room, else kept for the next owner. Thread-safe.
 *
 * @param <T> the context lent: an encoder or a decoder
 */
public abstract class LendingPool<T> implements AutoCloseable {
  /** The contexts of the pool's codec. */
  final ContextPool<T> contexts;

  /** Software contexts lent when every hardware session is busy; not bounded. */
  final ContextPool<T> overflow;

  /** Whether a context was lent in place of a busy hardware one. */
  private final Predicate<T> overflowed;

  /** Whether a context failed since it was made, so it must not be lent again. */
  private final Predicate<T> failed;

  LendingPool(
      ContextPool<T> contexts,
      int maxIdle,
      Consumer<T> closer,
      Predicate<T> overflowed,
      Predicate<T> failed) {
    this.contexts = contexts;
    this.overflow = new ContextPool<>(maxIdle, closer);
    this.overflowed = overflowed;
    this.failed = failed;
  }

  /** Takes a context back once its owner has read its statistics; it must not be used after. */
  public void giveBack(T item) {
    (overflowed.test(item) ? overflow : contexts).giveBack(item, !failed.test(item));
  }

  /**
   * Contexts made so far with the pool's codec (software ones lent in place of busy hardware not
   * counted): the native contexts this pool opened.
   */
  public long created() {
    return contexts.created();
  }

  /** Closes the idle contexts; those still lent out are closed when they come back. */
  @Override
  public void close() {
    contexts.close();
    overflow.close();
  }
}
