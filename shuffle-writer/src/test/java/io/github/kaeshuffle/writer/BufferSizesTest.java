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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sizes a partition's buffer memory comes in. */
class BufferSizesTest {
  private static final int KIB = 1024;

  @Test
  void fewPartitionsTakeTheLargestFirstBuffer() {
    assertEquals(4 * KIB, BufferSizes.firstBuffer(1, 4 * KIB));
    assertEquals(4 * KIB, BufferSizes.firstBuffer(200, 4 * KIB));
    assertEquals(4 * KIB, BufferSizes.firstBuffer(2048, 4 * KIB));
  }

  @Test
  void manyPartitionsShareTheFirstBuffersBudget() {
    // 8 MiB over 20,000 partitions: 419 bytes each, never under 512.
    assertEquals(512, BufferSizes.firstBuffer(20_000, 4 * KIB));
    // 8 MiB over 5,000: 1,677 bytes, down to a power of two.
    assertEquals(1 * KIB, BufferSizes.firstBuffer(5_000, 4 * KIB));
    for (int n : new int[] {0, 1, 3, 999, 4097, 1 << 20, Integer.MAX_VALUE}) {
      int first = BufferSizes.firstBuffer(n, 4 * KIB);
      assertTrue(
          first >= 512 && first <= 4 * KIB && Integer.bitCount(first) == 1, n + ": " + first);
    }
  }

  @Test
  void theFirstBufferIsNeverAboveTheLargest() {
    assertEquals(100, BufferSizes.firstBuffer(1, 100));
  }

  @Test
  void chunksAreTheFirstBufferUpToTheSmallMost() {
    assertEquals(2 * KIB, BufferSizes.chunkSize(2 * KIB, 256 * KIB));
    assertEquals(BufferSizes.SMALL_MOST, BufferSizes.chunkSize(256 * KIB, 256 * KIB));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> BufferSizes.chunkSize(0, 256 * KIB));
    assertTrue(e.getMessage().contains("1 to 262144 bytes"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BufferSizes.chunkSize(257 * KIB, 256 * KIB));
  }

  @Test
  void aChainHoldsWholeChunksUpToTheBlockAndTheSmallMost() {
    int limit = BufferSizes.smallLimit(256 * KIB, 3000);
    assertEquals(0, limit % 3000);
    assertTrue(limit <= BufferSizes.SMALL_MOST && limit > BufferSizes.SMALL_MOST - 3000);
    assertEquals(8 * KIB, BufferSizes.smallLimit(8 * KIB, 1 * KIB), "a small block bounds it");
  }
}
