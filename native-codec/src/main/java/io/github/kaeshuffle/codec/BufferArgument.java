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

import java.nio.ByteBuffer;

/**
 * A buffer argument reduced to what every backend can take: a {@code byte[]} or a direct {@code
 * ByteBuffer}, plus an absolute offset into it (independent of any position).
 */
final class BufferArgument {
  private final Object target;
  private final int offset;

  BufferArgument(Object target, int offset) {
    this.target = target;
    this.offset = offset;
  }

  Object target() {
    return target;
  }

  int offset() {
    return offset;
  }

  /** The backing array of a heap buffer, the buffer itself if direct, else a copy of its bytes. */
  static BufferArgument source(ByteBuffer b) {
    if (b.hasArray()) {
      return new BufferArgument(b.array(), b.arrayOffset() + b.position());
    } else if (b.isDirect()) {
      return new BufferArgument(b, b.position());
    }
    // A read-only heap buffer exposes no array: read its bytes through a copy.
    byte[] copy = new byte[b.remaining()];
    b.duplicate().get(copy);
    return new BufferArgument(copy, 0);
  }

  /** Like {@link #source} for a buffer that will be written. */
  static BufferArgument destination(ByteBuffer b) {
    if (b.isReadOnly()) {
      throw new java.nio.ReadOnlyBufferException();
    }
    return b.hasArray()
        ? new BufferArgument(b.array(), b.arrayOffset() + b.position())
        : new BufferArgument(b, b.position());
  }

  /** A ByteBuffer over {@code [offset, offset + length)} of a byte[] or direct buffer target. */
  static ByteBuffer view(Object target, int offset, int length) {
    if (target instanceof byte[]) {
      return ByteBuffer.wrap((byte[]) target, offset, length);
    }
    return ByteBuffers.range((ByteBuffer) target, offset, offset + length);
  }
}
