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

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * CRC32C (Castagnoli), the checksum of frames and indexes. On Java 9 and later it is the JDK's
 * {@code java.util.zip.CRC32C} (hardware instructions, direct buffers read in place), reached by
 * method handles because the Spark 3.5 jars are built for Java 8; on Java 8 a table-driven
 * implementation computes the same values. Not thread-safe, like the JDK's.
 */
public final class Crc32c {
  /** JDK's CRC32C constructor as {@code () -> Checksum}, or null on Java 8. */
  private static final MethodHandle NEW_JDK;

  /** {@code CRC32C.update(ByteBuffer)} as {@code (Checksum, ByteBuffer) -> void}, or null. */
  private static final MethodHandle UPDATE_BUFFER;

  static {
    MethodHandle create = null;
    MethodHandle update = null;
    try {
      Class<?> jdk = Class.forName("java.util.zip.CRC32C");
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      create =
          lookup
              .findConstructor(jdk, MethodType.methodType(void.class))
              .asType(MethodType.methodType(Checksum.class));
      update =
          lookup
              .findVirtual(jdk, "update", MethodType.methodType(void.class, ByteBuffer.class))
              .asType(MethodType.methodType(void.class, Checksum.class, ByteBuffer.class));
    } catch (ReflectiveOperationException e) {
      // Java 8: the table below.
    }
    NEW_JDK = create;
    UPDATE_BUFFER = update;
  }

  private final Checksum jdk;
  private final TableCrc32c table;

  /** The JDK's implementation where there is one, else the table. */
  public Crc32c() {
    this(NEW_JDK != null);
  }

  /** With {@code useJdk} false always the table (tests compare the two). */
  Crc32c(boolean useJdk) {
    this.jdk = useJdk ? newJdk() : null;
    this.table = useJdk ? null : new TableCrc32c();
  }

  private static Checksum newJdk() {
    try {
      return (Checksum) NEW_JDK.invokeExact();
    } catch (Throwable t) {
      throw new IllegalStateException("Creating the JDK's CRC32C failed", t);
    }
  }

  public void reset() {
    if (jdk != null) {
      jdk.reset();
    } else {
      table.reset();
    }
  }

  public void update(byte[] b, int off, int len) {
    if (jdk != null) {
      jdk.update(b, off, len);
    } else {
      table.update(b, off, len);
    }
  }

  /** Adds the buffer's remaining bytes and moves its position to its limit. */
  public void update(ByteBuffer b) {
    if (jdk == null) {
      table.update(b);
      return;
    }
    try {
      UPDATE_BUFFER.invokeExact(jdk, b);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  public long getValue() {
    return jdk != null ? jdk.getValue() : table.getValue();
  }

  /** Whether the JDK's implementation is in use (Java 9 or later). */
  public static boolean usesJdk() {
    return NEW_JDK != null;
  }

  /** Slicing-by-8 CRC32C for Java 8, reflected polynomial 0x82F63B78. */
  private static final class TableCrc32c {
    private static final int[][] T = tables();
    private int crc = 0xFFFFFFFF;
    private byte[] chunk;

    private static int[][] tables() {
      int[][] t = new int[8][256];
      for (int n = 0; n < 256; n++) {
        int c = n;
        for (int k = 0; k < 8; k++) {
          c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
        }
        t[0][n] = c;
      }
      for (int n = 0; n < 256; n++) {
        for (int k = 1; k < 8; k++) {
          t[k][n] = (t[k - 1][n] >>> 8) ^ t[0][t[k - 1][n] & 0xff];
        }
      }
      return t;
    }

    void reset() {
      crc = 0xFFFFFFFF;
    }

    long getValue() {
      return ~crc & 0xFFFFFFFFL;
    }

    void update(byte[] b, int off, int len) {
      int c = crc;
      int i = off;
      int end = off + len;
      for (; end - i >= 8; i += 8) {
        int lo =
            c
                ^ ((b[i] & 0xff)
                    | (b[i + 1] & 0xff) << 8
                    | (b[i + 2] & 0xff) << 16
                    | (b[i + 3] & 0xff) << 24);
        c =
            T[7][lo & 0xff]
                ^ T[6][(lo >>> 8) & 0xff]
                ^ T[5][(lo >>> 16) & 0xff]
                ^ T[4][lo >>> 24]
                ^ T[3][b[i + 4] & 0xff]
                ^ T[2][b[i + 5] & 0xff]
                ^ T[1][b[i + 6] & 0xff]
                ^ T[0][b[i + 7] & 0xff];
      }
      for (; i < end; i++) {
        c = (c >>> 8) ^ T[0][(c ^ b[i]) & 0xff];
      }
      crc = c;
    }

    void update(ByteBuffer b) {
      if (b.hasArray()) {
        update(b.array(), b.arrayOffset() + b.position(), b.remaining());
        b.position(b.limit());
        return;
      }
      // Direct buffers are read through one chunk per instance, not one allocation per call.
      if (chunk == null) {
        chunk = new byte[8192];
      }
      while (b.hasRemaining()) {
        int n = Math.min(chunk.length, b.remaining());
        b.get(chunk, 0, n);
        update(chunk, 0, n);
      }
    }
  }
}
