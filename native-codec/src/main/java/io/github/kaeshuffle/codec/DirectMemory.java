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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Buffers off the Java heap that are freed explicitly, never left to the garbage collector: the
 * writer's raw blocks and the reader's decode windows live for a task and are large, and on the
 * heap they would be copied by every young collection while the task runs and then grow the old
 * generation.
 *
 * <p>Buffers of {@link #MAP_THRESHOLD} bytes or more are mapped from the kernel by the native
 * library and unmapped when freed, so the process's resident memory falls when a task is done with
 * them. The JVM's own direct buffers come from malloc, and glibc, once the first large block is
 * freed, raises its mmap threshold and keeps every later one in its arenas: two task threads
 * freeing their buffers one after another then hold on to them, and peak memory varies widely
 * between identical runs (measured in docs/benchmarks/Partitions.md). Smaller buffers, and all of
 * them when the native library is not loaded or the kernel refuses a mapping, are the JVM's ({@code
 * ByteBuffer.allocateDirect}). A mapped buffer that is never freed is unmapped once the garbage
 * collector finds it unreachable ({@link NativeCleaner}).
 *
 * <p>Freeing a JVM direct buffer uses {@code sun.misc.Unsafe.invokeCleaner} (Java 9+); where it is
 * missing (Java 8) its memory is released when the buffer is collected: still correct, later.
 */
public final class DirectMemory {
  /**
   * Buffers from this size up are mapped from the kernel: 16 pages, past the sizes malloc serves
   * well from its arenas, below the writer's smallest block (16 KiB doubles to it or past it).
   */
  public static final int MAP_THRESHOLD = 64 * 1024;

  private static final Method INVOKE_CLEANER;
  private static final Object UNSAFE;

  /** Each mapped buffer's unmapping, by address. */
  private static final Map<Long, NativeCleaner.Cleanable> MAPPED = new ConcurrentHashMap<>();

  private static final AtomicLong MAPPED_BYTES = new AtomicLong();

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
      return allocateDirect(capacity);
    } catch (OutOfMemoryError e) {
      return ByteBuffer.allocate(capacity);
    }
  }

  /**
   * A direct buffer of {@code capacity} bytes, mapped from the kernel when it is large; throws
   * {@code OutOfMemoryError} as {@code ByteBuffer.allocateDirect} does when none can be had.
   */
  public static ByteBuffer allocateDirect(int capacity) {
    if (capacity >= MAP_THRESHOLD && NativeLoader.isLoaded()) {
      ByteBuffer mapped = map(capacity);
      if (mapped != null) {
        return mapped;
      }
    }
    return ByteBuffer.allocateDirect(capacity);
  }

  /** A buffer over a fresh mapping, or null when the kernel refuses one (then malloc serves). */
  private static ByteBuffer map(int capacity) {
    long address = NativeLib.mapMemory(capacity);
    if (address <= 0) {
      return null;
    }
    ByteBuffer b = NativeLib.directBuffer(address, capacity);
    if (b == null) {
      NativeLib.unmapMemory(address, capacity);
      return null;
    }
    MAPPED_BYTES.addAndGet(capacity);
    MAPPED.put(address, NativeCleaner.register(b, () -> unmap(address, capacity)));
    return b;
  }

  /** Forgets the mapping before the kernel may hand its address out again. */
  private static void unmap(long address, int capacity) {
    MAPPED.remove(address);
    NativeLib.unmapMemory(address, capacity);
    MAPPED_BYTES.addAndGet(-capacity);
  }

  /**
   * Releases a direct or mapped buffer's memory now; it must not be used afterwards, nor any view
   * of it. Heap buffers and null are ignored. Only buffers as allocated (not slices or duplicates).
   */
  public static void free(ByteBuffer buffer) {
    if (buffer == null || !buffer.isDirect()) {
      return;
    }
    // Only buffers of MAP_THRESHOLD bytes or more can be mapped: smaller ones (the raw buffers'
    // growth steps, many per task) skip the JNI address lookup.
    if (buffer.capacity() >= MAP_THRESHOLD && !MAPPED.isEmpty()) {
      NativeCleaner.Cleanable mapping = MAPPED.get(NativeLib.bufferAddress(buffer));
      if (mapping != null) {
        mapping.clean();
        return;
      }
    }
    if (INVOKE_CLEANER != null) {
      try {
        INVOKE_CLEANER.invoke(UNSAFE, buffer);
      } catch (ReflectiveOperationException e) {
        // Left to the garbage collector.
      }
    }
  }

  /** Bytes of mapped buffers not yet freed: direct memory the JVM's buffer pool does not count. */
  public static long mappedBytes() {
    return MAPPED_BYTES.get();
  }
}
