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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Segments round-trip for any codec, block size in range, data size and write pattern; the block
 * count and codec calls always follow from the sizes alone.
 */
class SegmentRoundTripProperties {
  private static final Map<String, BlockCodec> CODECS = new ConcurrentHashMap<>();

  @Provide
  Arbitrary<String> codecs() {
    return Arbitraries.of("zlib", "kaezip", "libdeflate", "java", "lz4", "zstd");
  }

  @Provide
  Arbitrary<Integer> blockSizes() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            BlockFormat.MIN_BLOCK_SIZE, BlockFormat.DEFAULT_BLOCK_SIZE, BlockFormat.MAX_BLOCK_SIZE),
        Arbitraries.integers().between(BlockFormat.MIN_BLOCK_SIZE, 300_000));
  }

  @Provide
  Arbitrary<Integer> dataSizes() {
    return Arbitraries.oneOf(
        Arbitraries.of(0, 1, 16 * 1024, 256 * 1024), Arbitraries.integers().between(0, 1_200_000));
  }

  @Property(tries = 120)
  void segmentsRestoreTheirBytes(
      @ForAll("codecs") String name,
      @ForAll("blockSizes") int blockSize,
      @ForAll("dataSizes") int size,
      @ForAll("kinds") String kind,
      @ForAll long seed)
      throws Exception {
    BlockCodec codec = CODECS.computeIfAbsent(name, TestCodecs::exact);
    byte[] data = TestCodecs.data(kind, size, seed);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Random chunks = new Random(seed);
    try (BlockEncoder enc = new BlockEncoder(codec);
        SegmentWriter w = new SegmentWriter(enc, blockSize, out)) {
      int i = 0;
      while (i < size) {
        int n =
            Math.min(
                size - i,
                chunks.nextInt(3) == 0 ? 1 + chunks.nextInt(20) : 1 + chunks.nextInt(100_000));
        if (chunks.nextBoolean()) {
          w.write(data, i, n);
        } else {
          w.write(ByteBuffer.wrap(data, i, n));
        }
        i += n;
      }
      long length = w.finish();
      assertEquals(out.size(), length);
      int blocks = (size + blockSize - 1) / blockSize;
      assertEquals(blocks, w.blockCount());
      assertEquals(blocks, enc.stats().codecCalls());
      assertEquals(size, enc.stats().rawBytes());
    }
    byte[] seg = out.toByteArray();
    try (BlockDecoder d = new BlockDecoder(codec)) {
      byte[] back = new SegmentInputStream(ByteBuffer.wrap(seg), d).readAllBytes();
      assertArrayEquals(data, back);
      assertEquals((size + blockSize - 1) / blockSize, d.stats().blocks());
    }
  }

  @Provide
  Arbitrary<String> kinds() {
    return Arbitraries.of("text", "random", "mixed");
  }
}
