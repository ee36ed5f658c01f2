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
package io.github.kaeshuffle.codec;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Runs an action once: when its owner is closed ({@link Cleanable#clean}) or, if the owner is
 * leaked, after the garbage collector finds it unreachable. What {@code java.lang.ref.Cleaner} does
 * from Java 9; the Spark 3.5 jars run on Java 8 too, so this one is built on a phantom reference
 * and one daemon thread. The action must not refer to the owner.
 */
final class NativeCleaner {
  /** A registered action; {@link #clean} runs it at most once, whoever calls first. */
  static final class Cleanable extends PhantomReference<Object> {
    private Runnable action;

    private Cleanable(Object owner, Runnable action, ReferenceQueue<Object> queue) {
      super(owner, queue);
      this.action = action;
    }

    /** Runs the action unless it already ran, and forgets the owner. */
    void clean() {
      Runnable a;
      synchronized (this) {
        a = action;
        action = null;
      }
      if (a != null) {
        LIVE.remove(this);
        a.run();
      }
    }
  }

  private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
  // Keeps the references reachable until they are cleaned (an unreachable reference is never
  // enqueued).
  private static final Set<Cleanable> LIVE =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  static {
    Thread t = new Thread(NativeCleaner::cleanLeaked, "kae-native-cleaner");
    t.setDaemon(true);
    t.start();
  }

  private NativeCleaner() {}

  /** Registers {@code action} to run when {@code owner} is cleaned or becomes unreachable. */
  static Cleanable register(Object owner, Runnable action) {
    Cleanable c = new Cleanable(owner, action, QUEUE);
    LIVE.add(c);
    return c;
  }

  private static void cleanLeaked() {
    while (true) {
      try {
        ((Cleanable) QUEUE.remove()).clean();
      } catch (InterruptedException e) {
        // A daemon thread for the life of the process: nothing to stop it for.
      } catch (RuntimeException | Error e) {
        // One failing action must not end the cleaning of all others.
      }
    }
  }
}
