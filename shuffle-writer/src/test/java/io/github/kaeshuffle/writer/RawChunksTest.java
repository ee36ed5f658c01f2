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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.kaeshuffle.codec.DirectMemory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RawChunksTest {
  /** Writes {@code bytes} into a new chain, taking a page when none is free; returns its head. */
  private static int[] chain(RawChunks c, byte[] bytes) {
    int head = -1;
    int tail = -1;
    for (int at = 0; at < bytes.length; at += c.chunkSize()) {
      int id = c.take();
      if (id < 0) {
        c.addPage();
        id = c.take();
      }
      if (head < 0) {
        head = id;
      } else {
        c.link(tail, id);
      }
      tail = id;
      c.put(id, 0, bytes, at, Math.min(c.chunkSize(), bytes.length - at));
    }
    return new int[] {head, tail};
  }

  private static byte[] read(RawChunks c, int head, int length) {
    ByteBuffer out = ByteBuffer.allocate(length);
    c.copyChain(head, length, out);
    return out.array();
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  @Test
  void chainsReadBackAcrossPagesAndFreedChunksAreReused() {
    RawChunks c = new RawChunks(512, true);
    // Pages of 4, 8, 16 chunks...: 17 + 3 chunks take three pages, 28 chunks.
    byte[] a = bytes(16 * 512 + 100, 1);
    byte[] b = bytes(3 * 512, 2);
    int[] ca = chain(c, a);
    int[] cb = chain(c, b);
    assertEquals(28 * 512, c.bytes());
    assertArrayEquals(a, read(c, ca[0], a.length));
    assertArrayEquals(b, read(c, cb[0], b.length));
    c.freeChain(ca[0], ca[1]);
    // 8 chunks were never taken, a's 17 are free again: 25 more fit without a page.
    int[] cc = chain(c, bytes(25 * 512, 3));
    assertEquals(28 * 512, c.bytes());
    assertArrayEquals(bytes(25 * 512, 3), read(c, cc[0], 25 * 512));
    assertArrayEquals(b, read(c, cb[0], b.length));
    assertEquals(-1, c.take());
    assertEquals(28 * 512, c.releaseAll());
    assertEquals(0, c.bytes());
  }

  @Test
  void pagesDoubleAndThenFillWholeRegionsOfG1() {
    RawChunks c = new RawChunks(512, true);
    int[] sizes = new int[15];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = c.nextPageBytes();
      c.addPage();
    }
    // 2 KiB doubling to 256 KiB, then 1, 1, 2, 4 and 8 regions of 1 MiB, less a header each.
    int r = 1 << 20;
    assertArrayEquals(
        new int[] {
          2048,
          4096,
          8192,
          16384,
          32768,
          65536,
          131072,
          262144,
          r - 512,
          r - 512,
          2 * r - 512,
          4 * r - 512,
          8 * r - 512,
          8 * r - 512,
          8 * r - 512
        },
        sizes);
    assertEquals(8 * r - 64, RawChunks.MAX_PAGE);
    assertThrows(IllegalArgumentException.class, () -> new RawChunks(r, true));
  }

  @Test
  void offHeapPagesAreMappedAndGivenBack() {
    long before = DirectMemory.mappedBytes();
    RawChunks c = new RawChunks(16384, false);
    // Pages of 64, 128, 256 KiB, then just under 1 MiB: all mapped (64 KiB and more).
    chain(c, bytes(60 * 16384, 4));
    assertEquals(c.bytes(), DirectMemory.mappedBytes() - before);
    assertEquals(64 * 1024 + 128 * 1024 + 256 * 1024 + ((1 << 20) - 16384), c.bytes());
    c.releaseAll();
    assertEquals(before, DirectMemory.mappedBytes());
  }
}
