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

import io.github.kaeshuffle.codec.ByteBuffers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An InputStream served from a sequence of decoded blocks: subclasses hand out the next block's
 * bytes, this class serves reads from them. The readers of this package and of the shuffle reader
 * differ only in where the next block comes from.
 */
public abstract class BlockSourceInputStream extends InputStream {
  private ByteBuffer current;
  private boolean eof;

  /**
   * The next block's bytes (position to limit), or null at the end. Called only when the previous
   * block is used up; the previous block's buffer may be reused from then on.
   */
  protected abstract ByteBuffer nextBlock() throws IOException;

  /**
   * Forgets the current block, e.g. before its memory is released; later reads go on from {@link
   * #nextBlock()}.
   */
  protected final void dropCurrent() {
    current = null;
  }

  private boolean fill() throws IOException {
    while (current == null || !current.hasRemaining()) {
      if (eof) {
        return false;
      }
      current = nextBlock();
      if (current == null) {
        eof = true;
        return false;
      }
    }
    return true;
  }

  @Override
  public final int read() throws IOException {
    return fill() ? current.get() & 0xff : -1;
  }

  @Override
  public final int read(byte[] b, int off, int len) throws IOException {
    ByteBuffers.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, current.remaining());
    current.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    return current == null ? 0 : current.remaining();
  }
}
