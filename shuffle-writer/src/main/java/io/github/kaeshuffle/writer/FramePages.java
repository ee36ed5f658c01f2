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

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.DirectMemory;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * The start of a {@link FrameFile} kept in execution memory: its bytes from offset 0 up to {@link
 * #end()} live in pages here, and only what lies past them goes to the file. A map task whose
 * compressed output fits then never writes a frame file, and its output reaches the disk once, in
 * the data file, not twice; and deleting a frame file at the end of the task waits for any of its
 * pages the kernel is still writing back, which on a slow disk holds the task until the disk has
 * caught up (measured in docs/benchmarks/scale/README.md).
 *
 * <p>Pages are added at the end only, while the bound and the budget allow; the first page either
 * refuses ends the growth for good, so the memory always holds one prefix of the file. {@link
 * #moveTo} writes every page to the file at its own offset and frees them all (a spill), after
 * which every offset is the file's. Not thread-safe: one task's thread.
 */
final class FramePages {
  /** A page: one G1 region of 1 MiB less an array's header, as {@link RawChunks}' large pages. */
  static final int PAGE = (1 << 20) - 64;

  private final long limit;
  private final HeldMemory memory;
  private final boolean onHeap;
  private ByteBuffer[] pages = new ByteBuffer[4];
  private int count;

  /** No more pages: the bound or the budget said no once, or the pages went to the file. */
  private boolean closed;

  /**
   * @param limit the most bytes of pages; under one page keeps every frame in the file
   */
  FramePages(long limit, HeldMemory memory, boolean onHeap) {
    this.limit = limit;
    this.memory = memory;
    this.onHeap = onHeap;
    this.closed = limit < PAGE;
  }

  /** Where the memory ends: offsets below it are in a page here, offsets from it in the file. */
  long end() {
    return (long) count * PAGE;
  }

  /**
   * Writes {@code src}'s remaining bytes at {@code at} while they fall in memory, adding pages as
   * needed; returns how many were written (0 when {@code at} is past what memory can hold).
   */
  int write(long at, ByteBuffer src) {
    int written = 0;
    while (src.hasRemaining() && (at < end() || (at == end() && grow()))) {
      ByteBuffer page = view(at);
      int n = Math.min(src.remaining(), page.remaining());
      page.put(ByteBuffers.range(src, src.position(), src.position() + n));
      ByteBuffers.position(src, src.position() + n);
      at += n;
      written += n;
    }
    return written;
  }

  /** Copies {@code count} bytes from {@code at}, all below {@link #end()}, into {@code dst}. */
  void read(long at, int count, ByteBuffer dst) {
    while (count > 0) {
      ByteBuffer page = view(at);
      int n = Math.min(count, page.remaining());
      dst.put(ByteBuffers.limit(page, page.position() + n));
      at += n;
      count -= n;
    }
  }

  /**
   * Writes {@code count} bytes from {@code at}, all below {@link #end()}, to {@code out}; a direct
   * page's bytes pass through {@code scratch}.
   */
  void copyTo(long at, long count, OutputStream out, ByteBuffer scratch) throws IOException {
    while (count > 0) {
      ByteBuffer page = view(at);
      int n = (int) Math.min(count, page.remaining());
      if (page.hasArray()) {
        out.write(page.array(), page.arrayOffset() + page.position(), n);
      } else {
        n = Math.min(n, scratch.capacity());
        scratch.clear();
        scratch.put(ByteBuffers.limit(page, page.position() + n));
        out.write(scratch.array(), 0, n);
      }
      at += n;
      count -= n;
    }
  }

  /**
   * Writes the pages' bytes below {@code used} (where the file's bytes end) to {@code file} at
   * their own offsets and frees every page; from then on every offset is the file's. Returns the
   * bytes of memory freed (given back already).
   */
  long moveTo(FileChannel file, long used) throws IOException {
    stop();
    long freed = end();
    for (int i = 0; i < count && (long) i * PAGE < used; i++) {
      long at = (long) i * PAGE;
      ByteBuffer bytes = ByteBuffers.range(pages[i], 0, (int) Math.min(PAGE, used - at));
      while (bytes.hasRemaining()) {
        file.write(bytes, at + bytes.position());
      }
    }
    free();
    return freed;
  }

  /** Takes no more pages: a spill before the first one, after which every offset is the file's. */
  void stop() {
    closed = true;
  }

  /** Frees every page and gives its memory back; idempotent. */
  void free() {
    for (int i = 0; i < count; i++) {
      if (onHeap) {
        HeapPages.giveBack(pages[i]);
      } else {
        DirectMemory.free(pages[i]);
      }
      pages[i] = null;
    }
    if (count > 0) {
      memory.release(end());
    }
    count = 0;
  }

  /** A view of the page holding {@code at}, positioned there, its limit the page's end. */
  private ByteBuffer view(long at) {
    ByteBuffer v = pages[(int) (at / PAGE)].duplicate();
    ByteBuffers.clear(v);
    return ByteBuffers.position(v, (int) (at % PAGE));
  }

  /** One more page, if the bound and the budget allow; the first refusal is the last. */
  private boolean grow() {
    if (closed || end() + PAGE > limit || !memory.tryReserve(PAGE)) {
      stop();
      return false;
    }
    if (count == pages.length) {
      pages = Arrays.copyOf(pages, count * 2);
    }
    pages[count++] = onHeap ? HeapPages.take(PAGE) : DirectMemory.allocate(PAGE);
    return true;
  }
}
