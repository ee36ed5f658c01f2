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
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The small raw buffers of {@link RawBlocks}: chains of equal chunks carved from a few large pages.
 * With many thousands of partitions every raw buffer is small and together they hold a map task's
 * whole output (a job at tens of thousands of partitions: tens of MiB per task in buffers of 512
 * bytes to 4 KiB). As separate direct buffers that memory comes on top of the heap the JVM has
 * grown anyway; as separate heap arrays every young collection copies them (both measured:
 * docs/benchmarks/Partitions.md). The large pages on the heap each fill whole 1 MiB regions of G1
 * as a humongous object, which young collections never copy, and are few; they are kept for the
 * next task ({@link HeapPages}).
 *
 * <p>Pages grow: the first holds {@link #FIRST_PAGE_CHUNKS} chunks and each next one twice as many
 * while under half a G1 region of 1 MiB; past that a page fills 1, 1, 2, 4 and then 8 whole
 * regions, less 64 bytes for the array's header ({@link #MAX_PAGE}). A task writing a few bytes (a
 * reduce task writing a one-partition shuffle, one per partition of a job at many partitions) then
 * takes a few KiB, and one writing tens of MiB a handful of small pages and a dozen large ones. Few
 * large pages matter: G1 may start a collection for every humongous allocation, which pages of one
 * region made a job at many partitions pay for (docs/benchmarks/Partitions.md). A chunk is named by
 * an int, its page in the high bits and its place there in the low ones; each page's {@code next}
 * array, made with the page and never copied, links the chunks of each chain and of the free list,
 * so that growing a chain leaves no garbage for G1's old generation
 * (docs/benchmarks/Partitions.md). Pages come and go whole: the owner reserves {@link
 * #nextPageBytes()} before {@link #addPage()} and gets every page's bytes back from {@link
 * #releaseAll()}. Not thread-safe: one task's thread.
 */
final class RawChunks {
  private static final int REGION = 1 << 20;

  /** The most bytes in a page: 8 regions of G1 less an array's header. */
  static final int MAX_PAGE = 8 * REGION - 64;

  /** Chunks in the first page. */
  static final int FIRST_PAGE_CHUNKS = 4;

  private final int chunkSize;
  private final boolean onHeap;
  private ByteBuffer[] pages = new ByteBuffer[4];

  /** Each page's view for copying, its position and limit moved for each copy. */
  private ByteBuffer[] views = new ByteBuffer[4];

  private int pageCount;
  private long bytes;

  /** Per page, per chunk: the next chunk of its chain or of the free list (-1: none). */
  private int[][] next = new int[4][];

  /** Bits of a chunk's id that are its place in its page: enough for the largest page. */
  private final int shift;

  private int free = -1;

  /**
   * @param onHeap pages on the Java heap (Spark's on-heap execution memory) or off it
   */
  RawChunks(int chunkSize, boolean onHeap) {
    if (chunkSize < 1 || chunkSize > REGION / 2 / FIRST_PAGE_CHUNKS) {
      throw new IllegalArgumentException("Chunks of " + chunkSize + " bytes are out of range.");
    }
    this.chunkSize = chunkSize;
    this.onHeap = onHeap;
    this.shift = 32 - Integer.numberOfLeadingZeros(MAX_PAGE / chunkSize);
  }

  int chunkSize() {
    return chunkSize;
  }

  /** Bytes of the page {@link #addPage()} adds next. */
  int nextPageBytes() {
    long doubled = (long) chunkSize * FIRST_PAGE_CHUNKS << Math.min(pageCount, 30);
    if (doubled < REGION / 2) {
      return (int) doubled;
    }
    long regions = Math.min(8, Math.max(1, Long.highestOneBit(doubled / REGION)));
    return (int) ((regions * REGION - 64) / chunkSize * chunkSize);
  }

  /** Bytes in pages now. */
  long bytes() {
    return bytes;
  }

  /** A free chunk, or -1 when every page's chunks are taken. */
  int take() {
    int id = free;
    if (id >= 0) {
      free = next(id);
      link(id, -1);
    }
    return id;
  }

  private int next(int id) {
    return next[id >>> shift][place(id)];
  }

  /** The chunk's index in its page. */
  private int place(int id) {
    return id & ((1 << shift) - 1);
  }

  private int offsetOf(int id) {
    return place(id) * chunkSize;
  }

  /** One more page, its chunks free; its bytes must have been reserved by the caller. */
  void addPage() {
    int size = nextPageBytes();
    if (pageCount == 1 << (31 - shift)) {
      // 2^(31 - shift) pages of up to 8 MiB: 1 TiB at 512-byte chunks, 2 GiB at one byte.
      throw new IllegalStateException("A map task's chunk ids ran out at " + pageCount + " pages.");
    }
    if (pageCount == pages.length) {
      pages = Arrays.copyOf(pages, pageCount * 2);
      views = Arrays.copyOf(views, pageCount * 2);
      next = Arrays.copyOf(next, pageCount * 2);
    }
    ByteBuffer page = onHeap ? HeapPages.take(size) : DirectMemory.allocate(size);
    pages[pageCount] = page;
    views[pageCount] = page.duplicate();
    int count = size / chunkSize;
    int[] links = new int[count];
    next[pageCount] = links;
    // Free in ascending order, so a page's chunks are handed out one after another.
    int first = pageCount << shift;
    for (int i = count - 1; i >= 0; i--) {
      links[i] = free;
      free = first | i;
    }
    pageCount++;
    bytes += size;
  }

  /** Makes {@code to} follow {@code from} in a chain. */
  void link(int from, int to) {
    next[from >>> shift][place(from)] = to;
  }

  /** Copies {@code len} bytes into chunk {@code id} at {@code at}. */
  void put(int id, int at, byte[] src, int off, int len) {
    ByteBuffer v = views[id >>> shift];
    ByteBuffers.limit(v, v.capacity());
    ByteBuffers.position(v, offsetOf(id) + at);
    v.put(src, off, len);
  }

  /** Appends the first {@code length} bytes of the chain from {@code head} to {@code dst}. */
  void copyChain(int head, int length, ByteBuffer dst) {
    for (int id = head; length > 0; id = next(id)) {
      int n = Math.min(length, chunkSize);
      ByteBuffer v = views[id >>> shift];
      int at = offsetOf(id);
      ByteBuffers.limit(v, at + n);
      ByteBuffers.position(v, at);
      dst.put(v);
      length -= n;
    }
  }

  /** Gives the chain from {@code head} to {@code tail} back to the free list. */
  void freeChain(int head, int tail) {
    link(tail, free);
    free = head;
  }

  /**
   * Drops every page (taken chunks included: the owner is done with all of them); returns their
   * bytes, for the owner to release.
   */
  long releaseAll() {
    long freed = bytes;
    for (int i = 0; i < pageCount; i++) {
      if (onHeap) {
        HeapPages.giveBack(pages[i]);
      } else {
        DirectMemory.free(pages[i]);
      }
      pages[i] = null;
      views[i] = null;
      next[i] = null;
    }
    pageCount = 0;
    bytes = 0;
    free = -1;
    return freed;
  }
}
