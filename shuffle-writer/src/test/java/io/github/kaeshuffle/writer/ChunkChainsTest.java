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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Partitions' chains of chunks: bytes come back in order and apart per partition, a chain stops at
 * its limit, freed chunks are taken again before a new page is reserved, and a refused page spills
 * instead of putting.
 */
class ChunkChainsTest {
  private static final int CHUNK = 64;

  /** Chains of at most {@code chunks} chunks, their pages reserved in {@code budget}. */
  private static ChunkChains chains(int chunks, LimitedBudget budget) {
    return new ChunkChains(
        new RawChunks(CHUNK, true), chunks * CHUNK, new HeldMemory(budget, () -> 0));
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  /** Puts all of {@code b} into p's chain, as the buffer's append does; false if it spilled. */
  private static boolean putAll(ChunkChains c, RawBlock p, byte[] b) throws IOException {
    int off = 0;
    while (off < b.length) {
      int n = c.put(p, b, off, b.length - off);
      if (n == 0) {
        return false;
      }
      off += n;
    }
    return true;
  }

  private static byte[] gathered(ChunkChains c, RawBlock p) {
    ByteBuffer g = c.gather(p);
    byte[] out = new byte[g.remaining()];
    g.get(out);
    return out;
  }

  @Test
  void partitionsInterleavedKeepTheirBytesInOrder() throws IOException {
    ChunkChains c = chains(8, new LimitedBudget(1 << 20));
    RawBlock a = new RawBlock(0);
    RawBlock b = new RawBlock(1);
    byte[] a1 = bytes(100, 1);
    byte[] b1 = bytes(150, 2);
    byte[] a2 = bytes(90, 3);
    assertTrue(putAll(c, a, a1));
    assertTrue(putAll(c, b, b1));
    assertTrue(putAll(c, a, a2));
    byte[] expectA = new byte[190];
    System.arraycopy(a1, 0, expectA, 0, 100);
    System.arraycopy(a2, 0, expectA, 100, 90);
    assertArrayEquals(expectA, gathered(c, a));
    assertArrayEquals(b1, gathered(c, b));
    assertEquals(190, a.chained);
    c.close();
    c.releaseAll();
  }

  @Test
  void aChainStopsAtItsLimit() throws IOException {
    ChunkChains c = chains(2, new LimitedBudget(1 << 20));
    RawBlock p = new RawBlock(0);
    assertTrue(putAll(c, p, bytes(2 * CHUNK - 1, 0)));
    assertFalse(c.full(p));
    assertEquals(1, c.put(p, bytes(10, 0), 0, 10), "only what is left of the last chunk");
    assertTrue(c.full(p));
    assertEquals(2 * CHUNK, gathered(c, p).length);
    c.close();
  }

  @Test
  void freedChunksAreTakenBeforeANewPage() throws IOException {
    LimitedBudget budget = new LimitedBudget(1 << 20);
    ChunkChains c = chains(4, budget);
    RawBlock p = new RawBlock(0);
    // The first page has RawChunks.FIRST_PAGE_CHUNKS chunks: fill them, free, fill again.
    assertTrue(putAll(c, p, bytes(RawChunks.FIRST_PAGE_CHUNKS * CHUNK, 0)));
    assertEquals(1, budget.asked);
    c.free(p);
    assertEquals(0, p.chained);
    assertTrue(putAll(c, p, bytes(RawChunks.FIRST_PAGE_CHUNKS * CHUNK, 5)));
    assertEquals(1, budget.asked, "no second page while freed chunks are there");
    assertArrayEquals(bytes(RawChunks.FIRST_PAGE_CHUNKS * CHUNK, 5), gathered(c, p));
    long pages = c.releaseAll();
    assertEquals(RawChunks.FIRST_PAGE_CHUNKS * CHUNK, pages);
    c.close();
  }

  @Test
  void aPageRefusedSpillsAndPutsNothing() throws IOException {
    int[] spills = {0};
    ChunkChains c =
        new ChunkChains(
            new RawChunks(CHUNK, true),
            4 * CHUNK,
            new HeldMemory(
                new LimitedBudget(0),
                () -> {
                  spills[0]++;
                  return 1; // something was spilled: the caller empties the block and retries
                }));
    RawBlock p = new RawBlock(0);
    assertEquals(0, c.put(p, bytes(10, 0), 0, 10));
    assertEquals(1, spills[0]);
    assertEquals(0, p.chained);
    c.close();
  }
}
