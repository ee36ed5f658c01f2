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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LargeBuffers} alone: what it maps, what it reserves and gives back, and which partition
 * gives up its buffer at the bound. The buffer's own tests drive it through whole map outputs.
 */
class LargeBuffersTest {
  private static final int BLOCK = 64 * 1024;

  private final LimitedBudget budget = new LimitedBudget(1L << 30);
  private final HeldMemory memory = new HeldMemory(budget, () -> 0);
  private final List<Integer> parked = new ArrayList<>();
  private final LargeBuffers.Park park =
      p -> {
        parked.add(p.id);
        return true;
      };
  private LargeBuffers buffers;

  @AfterEach
  void freeEverything() {
    if (buffers != null) {
      memory.release(buffers.freeSpares());
    }
    memory.releaseAll();
  }

  /** Partition {@code id} holding a large buffer with {@code bytes} bytes in it. */
  private RawBlock member(int id, int bytes) throws IOException {
    RawBlock p = new RawBlock(id);
    p.raw = buffers.bufferFor(p, BLOCK, park);
    p.raw.position(bytes);
    buffers.add(p);
    return p;
  }

  @Test
  void theBoundIsZeroOrAtLeastTwoBlocks() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new LargeBuffers(BLOCK, BLOCK, memory));
    assertTrue(e.getMessage().contains("at least two blocks"), e.getMessage());
    new LargeBuffers(0, BLOCK, memory);
    new LargeBuffers(2L * BLOCK, BLOCK, memory);
  }

  @Test
  void withoutABoundEveryBufferIsMappedReservedAndGivenBackWhenFreedOrRetired() throws IOException {
    buffers = new LargeBuffers(0, BLOCK, memory);
    RawBlock a = member(0, 10);
    RawBlock b = member(1, 20);
    assertEquals(2L * BLOCK, buffers.bytes());
    assertEquals(2L * BLOCK, budget.used);
    memory.release(buffers.free(a));
    assertNull(a.raw);
    assertEquals(0, buffers.free(a), "freeing twice frees nothing");
    ByteBuffer given = b.raw;
    b.raw = null;
    buffers.retire(given); // no bound: nothing takes it back, so it is unmapped
    assertEquals(0, buffers.bytes());
    assertEquals(0, budget.used);
    assertTrue(parked.isEmpty());
  }

  @Test
  void atTheBoundAnEmptyBufferIsGivenUpWithoutParking() throws IOException {
    buffers = new LargeBuffers(2L * BLOCK, BLOCK, memory);
    RawBlock full = member(0, 500);
    RawBlock empty = member(1, 0);
    ByteBuffer emptys = empty.raw;
    RawBlock asking = new RawBlock(2);
    asking.chained = 100;
    assertSame(emptys, buffers.bufferFor(asking, BLOCK, park), "the empty one's buffer");
    assertNull(empty.raw);
    assertEquals(500, full.raw.position(), "the fuller one keeps its bytes");
    assertTrue(parked.isEmpty(), "giving up an empty buffer costs nothing");
    assertEquals(2L * BLOCK, buffers.bytes());
  }

  @Test
  void atTheBoundTheFullestIsParkedUnlessTheAskerIsFullest() throws IOException {
    buffers = new LargeBuffers(2L * BLOCK, BLOCK, memory);
    member(0, 300);
    RawBlock fullest = member(1, 700);
    RawBlock asking = new RawBlock(2);
    asking.chained = 100;
    ByteBuffer got = buffers.bufferFor(asking, BLOCK, park);
    assertEquals(List.of(1), parked, "the fullest parked, to free the most");
    assertNull(fullest.raw);
    assertEquals(0, got.position(), "a spare is handed out empty");
    asking.raw = got;
    got.position(100);
    buffers.add(asking);

    RawBlock larger = new RawBlock(3);
    larger.chained = 1000; // more than every member holds
    assertNull(buffers.bufferFor(larger, BLOCK, park), "the asker parks its own bytes");
    assertEquals(List.of(1, 3), parked);
    assertEquals(2L * BLOCK, budget.used, "nothing mapped beyond the bound");
  }

  @Test
  void aSpareTooSmallIsUnmappedToMakeRoomBeforeAnyPartitionGivesUpItsBuffer() throws IOException {
    buffers = new LargeBuffers(2L * BLOCK, BLOCK, memory);
    RawBlock member = member(0, 10);
    buffers.retire(buffers.bufferFor(new RawBlock(1), BLOCK / 4, park)); // a quarter-block spare
    assertEquals(BLOCK + BLOCK / 4, buffers.bytes());
    ByteBuffer whole = buffers.bufferFor(new RawBlock(2), BLOCK, park);
    assertEquals(BLOCK, whole.capacity());
    assertEquals(2L * BLOCK, buffers.bytes(), "the spare unmapped, a block mapped");
    assertEquals(2L * BLOCK, budget.used, "the spare's memory given back");
    assertEquals(10, member.raw.position());
    assertTrue(parked.isEmpty());
  }
}
