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

import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The {@code ByteBuffer} operations Java 9 to 16 added, for code built for Java 8 (the Spark 3.5
 * jars run there): before Java 9 {@code flip}, {@code limit} and {@code position} return a {@code
 * Buffer}, and absolute bulk {@code get}/{@code put} and {@code slice(index, length)} do not exist.
 * Each goes through {@link Buffer}, so the bytecode links on every Java.
 */
public final class ByteBuffers {
  private ByteBuffers() {}

  /** A view of {@code [from, to)} of {@code b}: a duplicate at position from, limit to. */
  public static ByteBuffer range(ByteBuffer b, int from, int to) {
    ByteBuffer d = b.duplicate();
    ((Buffer) d).limit(to);
    ((Buffer) d).position(from);
    return d;
  }

  /** {@code b.slice(index, length)} of Java 13: a buffer of those bytes, its position 0. */
  public static ByteBuffer slice(ByteBuffer b, int index, int length) {
    return range(b, index, index + length).slice();
  }

  public static ByteBuffer flip(ByteBuffer b) {
    ((Buffer) b).flip();
    return b;
  }

  public static ByteBuffer clear(ByteBuffer b) {
    ((Buffer) b).clear();
    return b;
  }

  public static ByteBuffer limit(ByteBuffer b, int limit) {
    ((Buffer) b).limit(limit);
    return b;
  }

  public static ByteBuffer position(ByteBuffer b, int position) {
    ((Buffer) b).position(position);
    return b;
  }

  /**
   * {@code dst.put(index, src, offset, length)} of Java 16: copies {@code length} bytes from {@code
   * src} at {@code offset} to {@code dst} at {@code index}; no position changes.
   */
  public static void putAt(ByteBuffer dst, int index, ByteBuffer src, int offset, int length) {
    ByteBuffer to = dst.duplicate();
    ((Buffer) to).position(index);
    to.put(range(src, offset, offset + length));
  }

  /**
   * {@code src.get(index, dst, offset, length)} of Java 13: copies {@code length} bytes at {@code
   * index} into the array; no position changes.
   */
  public static void getAt(ByteBuffer src, int index, byte[] dst, int offset, int length) {
    range(src, index, index + length).get(dst, offset, length);
  }

  /**
   * {@code Objects.checkFromIndexSize} of Java 9: throws unless {@code [from, from + size)} lies
   * within {@code [0, length)}.
   */
  public static void checkFromIndexSize(int from, int size, int length) {
    if ((length | from | size) < 0 || size > length - from) {
      throw new IndexOutOfBoundsException(
          "Range [" + from + ", " + from + " + " + size + ") out of bounds for length " + length);
    }
  }
}
