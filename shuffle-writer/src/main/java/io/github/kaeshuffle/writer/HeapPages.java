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

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The writer's large heap pages ({@link FramePages}', {@link RawChunks}'), kept from one map task
 * for the next. A page of half a G1 region (512 KiB on heaps of up to 2 GiB) or more is a humongous
 * object, and G1 may start a concurrent cycle for every humongous allocation: a stage of map tasks
 * that each take tens of MiB of pages would allocate thousands of them. A page given back is held
 * by a weak reference, as Spark's own {@code HeapMemoryAllocator} holds its large pages: lent, it
 * is the task's execution memory, which the task reserved; idle, it is the collector's at its next
 * concurrent cycle, so the pool never holds memory Spark's memory manager did not grant. (Soft
 * references kept more pages longer for no less time and a higher peak RSS: docs/design.md.) A page
 * lent again is zeroed, as a new array is, so no task sees another's bytes. Smaller pages are made
 * and dropped as before. Thread-safe.
 */
final class HeapPages {
  /** The smallest page kept: half of G1's smallest region, where humongous objects begin. */
  static final int KEPT_FROM = 512 * 1024;

  /** Idle pages of one length, and how many entries the list may hold before it is pruned. */
  private static final class Idle {
    final Deque<WeakReference<byte[]>> pages = new ArrayDeque<>();
    int pruneAt = 16;
  }

  /** Idle pages by length. */
  private static final Map<Integer, Idle> IDLE = new HashMap<>();

  private static long made;
  private static long reused;

  private HeapPages() {}

  /** A heap buffer of {@code size} zeroed bytes: an idle page if the collector left one. */
  static ByteBuffer take(int size) {
    if (size < KEPT_FROM) {
      return ByteBuffer.allocate(size);
    }
    byte[] page = idle(size);
    if (page == null) {
      page = new byte[size];
    } else {
      Arrays.fill(page, (byte) 0);
    }
    return ByteBuffer.wrap(page);
  }

  /**
   * Keeps a buffer {@link #take} lent, if large enough, for the next task; the caller must not use
   * it again.
   */
  static void giveBack(ByteBuffer page) {
    if (!page.hasArray() || page.arrayOffset() != 0) {
      throw new IllegalArgumentException("Not a heap page: " + page);
    }
    int size = page.array().length;
    if (size >= KEPT_FROM) {
      synchronized (HeapPages.class) {
        Idle idle = IDLE.computeIfAbsent(size, s -> new Idle());
        idle.pages.push(new WeakReference<>(page.array()));
        prune(idle);
      }
    }
  }

  /**
   * Drops the references the collector cleared once the list has doubled since the last time: a
   * long application's cleared ones would otherwise pile up under the live ones, which are taken
   * first.
   */
  private static void prune(Idle idle) {
    if (idle.pages.size() >= idle.pruneAt) {
      idle.pages.removeIf(r -> r.get() == null);
      idle.pruneAt = Math.max(16, 2 * idle.pages.size());
    }
  }

  /** An idle page of {@code size} bytes, or null when there is none and the caller makes one. */
  private static synchronized byte[] idle(int size) {
    Idle idle = IDLE.get(size);
    while (idle != null && !idle.pages.isEmpty()) {
      byte[] page = idle.pages.pop().get();
      if (page != null) {
        reused++;
        return page;
      }
    }
    made++;
    return null;
  }

  /** Clears every idle page's reference, as the collector may: for tests. */
  static synchronized void clearIdle() {
    IDLE.values().forEach(idle -> idle.pages.forEach(WeakReference::clear));
  }

  /** Entries in the idle list of one length, cleared ones included: for tests. */
  static synchronized int idleEntries(int size) {
    Idle idle = IDLE.get(size);
    return idle == null ? 0 : idle.pages.size();
  }

  /** Pages of a kept length made since the JVM started: the lends no idle page served. */
  static synchronized long made() {
    return made;
  }

  /** Pages lent again instead of made. */
  static synchronized long reused() {
    return reused;
  }
}
