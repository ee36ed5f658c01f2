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

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;

/**
 * Buffers off the Java heap that are freed explicitly, never left to the garbage collector: the
 * writer's raw blocks and the reader's decode windows live for a task and are large, and on the
 * heap they would be copied by every young collection while the task runs and then grow the old
 * generation. Freeing uses {@code sun.misc.Unsafe.invokeCleaner} (Java 9+); where it is missing
 * (Java 8) memory is released when the buffer is collected: still correct, later.
 */
public final class DirectMemory {
  private static final Method INVOKE_CLEANER;
  private static final Object UNSAFE;

  static {
    Method m = null;
    Object u = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      u = f.get(null);
      m = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Java 8: memory is released when the buffer is collected.
      m = null;
    }
    INVOKE_CLEANER = m;
    UNSAFE = u;
  }

  private DirectMemory() {}

  /**
   * A direct buffer of {@code capacity} bytes; a heap buffer when the JVM's direct memory limit
   * ({@code -XX:MaxDirectMemorySize}) is reached, so a tight limit costs speed, not the task.
   */
  public static ByteBuffer allocate(int capacity) {
    try {
      return ByteBuffer.allocateDirect(capacity);
    } catch (OutOfMemoryError e) {
      return ByteBuffer.allocate(capacity);
    }
  }

  /**
   * Releases a direct or mapped buffer's memory now; it must not be used afterwards, nor any view
   * of it. Heap buffers and null are ignored. Only buffers as allocated (not slices or duplicates).
   */
  public static void free(ByteBuffer buffer) {
    if (buffer != null && buffer.isDirect() && INVOKE_CLEANER != null) {
      try {
        INVOKE_CLEANER.invoke(UNSAFE, buffer);
      } catch (ReflectiveOperationException e) {
        // Left to the garbage collector.
      }
    }
  }
}
