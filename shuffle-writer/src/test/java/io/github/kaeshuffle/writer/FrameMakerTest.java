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

import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockEncoder;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link FrameMaker} alone: frames sized to need. */
class FrameMakerTest {
  private static final int BLOCK = 64 * 1024;

  private static BlockEncoder encoder() throws Exception {
    return new BlockEncoder(Codecs.exact(CodecOptions.builder().codec(CodecKind.LZ4).build()));
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
    try (BlockEncoder e = encoder()) {
      FrameMaker m = new FrameMaker(e, BLOCK);
      assertEquals(0, m.frameCapacity(), "nothing made before the first frame");
      byte[] small = TestBytes.noise(300, 1);
      int length = m.encode(new RawBlock(0), ByteBuffer.wrap(small));
      assertEquals(e.maxFrameLength(300), m.frameCapacity(), "made for the first frame's need");
      assertArrayEquals(small, decoded(m, length, small.length));

      byte[] larger = TestBytes.noise(500, 2);
      length = m.encode(new RawBlock(1), ByteBuffer.wrap(larger));
      assertEquals(2 * e.maxFrameLength(300), m.frameCapacity(), "doubled: it holds 500");
      assertArrayEquals(larger, decoded(m, length, larger.length));

      byte[] whole = TestBytes.noise(BLOCK, 3);
      length = m.encode(new RawBlock(2), ByteBuffer.wrap(whole));
      assertEquals(e.maxFrameLength(BLOCK), m.frameCapacity(), "at most a full block's frame");
      assertArrayEquals(whole, decoded(m, length, BLOCK));
    }
  }
}
