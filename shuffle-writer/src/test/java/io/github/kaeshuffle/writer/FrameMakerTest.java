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

import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockEncoder;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FrameMaker} alone: frames sized to need, and a parked block put back together. */
class FrameMakerTest {
  private static final int BLOCK = 64 * 1024;

  private static BlockEncoder encoder() throws Exception {
    return new BlockEncoder(Codecs.exact(CodecOptions.builder().codec(CodecKind.LZ4).build()));
  }

  /** Bytes that do not shrink, so a frame is as long as its input and its header. */
  private static byte[] noise(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** The raw bytes of the frame {@code m} made last. */
  private static byte[] decoded(FrameMaker m, int length, int raw) throws Exception {
    ByteBuffer out = ByteBuffer.allocate(raw);
    try (BlockDecoder d = new BlockDecoder(null)) {
      d.decode(ByteBuffer.wrap(Arrays.copyOf(m.frame().array(), length)), 0, -1, out);
    }
    return out.array();
  }

  @Test
  void theFrameBufferGrowsWithNeedAndNeverPastAFullBlocksFrame() throws Exception {
    LimitedBudget budget = new LimitedBudget(1L << 30);
    try (BlockEncoder e = encoder()) {
      FrameMaker m = new FrameMaker(e, BLOCK, new HeldMemory(budget, () -> 0));
      assertEquals(0, m.frameCapacity(), "nothing made before the first frame");
      byte[] small = noise(300, 1);
      int length = m.encode(new RawBlock(0), ByteBuffer.wrap(small));
      assertEquals(e.maxFrameLength(300), m.frameCapacity(), "made for the first frame's need");
      assertArrayEquals(small, decoded(m, length, small.length));

      byte[] larger = noise(500, 2);
      length = m.encode(new RawBlock(1), ByteBuffer.wrap(larger));
      assertEquals(2 * e.maxFrameLength(300), m.frameCapacity(), "doubled: it holds 500");
      assertArrayEquals(larger, decoded(m, length, larger.length));

      byte[] whole = noise(BLOCK, 3);
      length = m.encode(new RawBlock(2), ByteBuffer.wrap(whole));
      assertEquals(e.maxFrameLength(BLOCK), m.frameCapacity(), "at most a full block's frame");
      assertArrayEquals(whole, decoded(m, length, BLOCK));
      assertEquals(0, budget.used, "the frame is the owner's to reserve");
      m.close();
    }
  }

  @Test
  void aBlockWithParkedBytesIsPutBackTogetherWhole(@TempDir Path dir) throws Exception {
    LimitedBudget budget = new LimitedBudget(1L << 30);
    HeldMemory memory = new HeldMemory(budget, () -> 0);
    FramePages pages = new FramePages(0, memory, true);
    try (BlockEncoder e = encoder();
        FrameFile frames = new FrameFile(() -> Files.createTempFile(dir, "f", ""), 1, pages)) {
      FrameMaker m = new FrameMaker(e, BLOCK, memory);
      assertTrue(m.readyToPark());
      assertEquals(BLOCK, budget.used, "the assembly block reserved once");
      assertTrue(m.readyToPark());
      assertEquals(BLOCK, budget.used);

      byte[] block = noise(BLOCK, 4);
      RawBlock p = new RawBlock(0);
      frames.park(0, ByteBuffer.wrap(block, 0, 40_000));
      p.parkedBytes = 40_000;
      ByteBuffer inMemory = ByteBuffer.wrap(block, 40_000, BLOCK - 40_000);
      ByteBuffer assembled = m.assemble(frames, p, inMemory);
      assertEquals(0, p.parkedBytes);
      byte[] back = new byte[assembled.remaining()];
      assembled.get(back);
      assertArrayEquals(block, back, "parked bytes first, then those in memory");
      m.close();
      m.close();
      memory.releaseAll();
    }
  }

  @Test
  void readyToParkIsFalseWhenReservingTheAssemblyBlockSpilled() throws Exception {
    LimitedBudget budget = new LimitedBudget(BLOCK - 1);
    int[] spills = {0};
    HeldMemory memory =
        new HeldMemory(
            budget,
            () -> {
              spills[0]++;
              return 1; // the owner's spill freed something: it looks at its state again
            });
    try (BlockEncoder e = encoder()) {
      FrameMaker m = new FrameMaker(e, BLOCK, memory);
      assertFalse(m.readyToPark());
      assertEquals(1, spills[0]);
      assertEquals(0, budget.used, "nothing reserved, nothing made");
      m.close();
    }
  }
}
