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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RawBlocks} alone: a block grows from its chain into a direct buffer, parks its bytes when
 * the large buffers' bound needs room, and comes back whole, byte for byte, however it was backed.
 */
class RawBlocksTest {
  private static final int BLOCK = 4 * BufferSizes.SMALL_MOST; // past the chains' limit

  @TempDir Path dir;

  private final BufferCounters counters = new BufferCounters();
  private final LimitedBudget budget = new LimitedBudget(1L << 30);
  private final HeldMemory memory = new HeldMemory(budget, () -> 0);

  @AfterEach
  void giveTheMemoryBack() {
    memory.releaseAll();
  }

  private FrameFile frameFile(int partitions, HeldMemory memory) {
    return new FrameFile(
        () -> Files.createTempFile(dir, "f", ""), partitions, new FramePages(0, memory, true));
  }

  /** Puts all of {@code bytes} into p in pieces of {@code piece}, as records would come. */
  private static void putAll(
      RawBlocks blocks, RawBlock p, byte[] bytes, int from, int to, int piece) throws IOException {
    for (int off = from; off < to; ) {
      off += blocks.put(p, bytes, off, Math.min(piece, to - off));
    }
  }

  private static byte[] bytesOf(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  @Test
  void aBlockGrowsFromItsChainIntoOneDirectBufferAndComesBackWhole() throws Exception {
    try (FrameFile frames = frameFile(1, memory)) {
      RawBlocks blocks = new RawBlocks(BLOCK, 512, 0, true, frames, memory, counters);
      RawBlock p = new RawBlock(0);
      byte[] block = TestBytes.noise(BLOCK, 1);
      putAll(blocks, p, block, 0, 1000, 100);
      assertNull(p.raw, "a small block stays in its chain");
      assertArrayEquals(Arrays.copyOf(block, 1000), bytesOf(blocks.whole(p)));

      putAll(blocks, p, block, 1000, BLOCK, 1000);
      assertTrue(p.raw != null, "past the chain's limit the block is one direct buffer");
      assertEquals(0, blocks.put(p, block, 0, 1), "never past a full block");
      assertArrayEquals(block, bytesOf(blocks.whole(p)));

      blocks.empty(p);
      assertEquals(0, p.blockLength());
      memory.release(blocks.free(p) + blocks.freeChainsAndSpares());
      blocks.close();
    }
  }

  @Test
  void atTheBoundTheFullestBlockParksAndIsPutBackTogetherWhole() throws Exception {
    int partitions = 3;
    try (FrameFile frames = frameFile(partitions, memory)) {
      RawBlocks blocks = new RawBlocks(BLOCK, 512, 2L * BLOCK, true, frames, memory, counters);
      RawBlock[] ps = new RawBlock[partitions];
      byte[][] data = new byte[partitions][];
      for (int i = 0; i < partitions; i++) {
        ps[i] = new RawBlock(i);
        data[i] = TestBytes.noise(BLOCK, 10 + i);
      }
      // The partitions fill at the same pace, so three growing buffers pass a bound of two blocks.
      for (int at = 0; at < BLOCK; at += 4096) {
        for (int i = 0; i < partitions; i++) {
          putAll(blocks, ps[i], data[i], at, at + 4096, 4096);
        }
        assertTrue(blocks.largeBytes() <= 2L * BLOCK, "within the bound: " + blocks.largeBytes());
      }
      assertTrue(counters.parkedBytes() > 0, "some block parked bytes to stay within the bound");
      for (int i = 0; i < partitions; i++) {
        assertEquals(BLOCK, ps[i].blockLength());
        assertArrayEquals(data[i], bytesOf(blocks.whole(ps[i])), "partition " + i);
        assertEquals(0, ps[i].parkedBytes, "parked bytes read back once");
        blocks.empty(ps[i]);
        memory.release(blocks.free(ps[i]));
      }
      memory.release(blocks.freeChainsAndSpares());
      blocks.close();
      blocks.close();
    }
  }

  @Test
  void theAssemblyBlockIsReservedOnceAndNotWhenReservingItSpilled() throws Exception {
    try (FrameFile frames = frameFile(1, memory)) {
      RawBlocks blocks = new RawBlocks(BLOCK, 512, 0, true, frames, memory, counters);
      assertTrue(blocks.readyToPark());
      assertEquals(BLOCK, budget.used, "the assembly block reserved once");
      assertTrue(blocks.readyToPark());
      assertEquals(BLOCK, budget.used);
      blocks.close();
    }

    LimitedBudget small = new LimitedBudget(BLOCK - 1);
    int[] spills = {0};
    HeldMemory refused =
        new HeldMemory(
            small,
            () -> {
              spills[0]++;
              return 1; // the owner's spill freed something: it looks at its state again
            });
    try (FrameFile frames = frameFile(1, refused)) {
      RawBlocks blocks = new RawBlocks(BLOCK, 512, 0, true, frames, refused, counters);
      assertFalse(blocks.readyToPark());
      assertEquals(1, spills[0]);
      assertEquals(0, small.used, "nothing reserved, nothing made");
      blocks.close();
    }
  }
}
