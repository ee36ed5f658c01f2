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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.BlockCompressor;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incompressibility probe: its judgement against what real deflate (zlib) does with the same
 * block, and the encoder's use of it (no codec call for a probed block, the same bytes back).
 */
class IncompressibleProbeTest {
  private static final int BLOCK = BlockFormat.DEFAULT_BLOCK_SIZE;

  /** Blocks of several kinds, as a shuffle might carry them. */
  private static byte[] block(String kind, int size, long seed) {
    Random r = new Random(seed);
    byte[] b = new byte[size];
    BiConsumer<Integer, byte[]> repeat =
        (period, out) -> {
          byte[] blob = new byte[period];
          r.nextBytes(blob);
          for (int i = 0; i < out.length; i++) {
            out[i] = blob[i % period];
          }
        };
    switch (kind) {
      case "random" -> r.nextBytes(b);
      // Kryo-like records of 1,000 random bytes behind a short header (the incompressible
      // workload): deflate cannot shrink them.
      case "random-records" -> {
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
          byte[] rec = new byte[1000];
          r.nextBytes(rec);
          byte[] head = {2, 3, (byte) r.nextInt(), (byte) r.nextInt(), 7, (byte) 0xE8, 7};
          bb.put(head, 0, Math.min(head.length, bb.remaining()));
          bb.put(rec, 0, Math.min(rec.length, bb.remaining()));
        }
      }
      case "repeated-4k" -> repeat.accept(4096, b);
      case "repeated-30k" -> repeat.accept(30000, b);
      case "lowercase" -> {
        for (int i = 0; i < size; i++) {
          b[i] = (byte) ('a' + r.nextInt(26));
        }
      }
      case "small-ints" -> {
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.remaining() >= 4) {
          bb.putInt(r.nextInt(1_000_000));
        }
      }
      case "random-with-text" -> {
        r.nextBytes(b);
        for (int i = 0; i < size; i += 1000) {
          for (int k = 0; k < 100 && i + k < size; k++) {
            b[i + k] = (byte) ('a' + k % 5);
          }
        }
      }
      default -> b = TestCodecs.data(kind, size, seed);
    }
    return b;
  }

  private static double deflateRatio(byte[] data) throws CodecException {
    BlockCodec zlib = TestCodecs.exact("zlib");
    try (BlockCompressor c = zlib.newCompressor()) {
      ByteBuffer out = ByteBuffer.allocate(zlib.maxCompressedLength(data.length));
      return c.compress(ByteBuffer.wrap(data), out) / (double) data.length;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"random", "random-records"})
  void blocksDeflateCannotShrinkAreJudgedIncompressible(String kind) throws CodecException {
    for (int size : new int[] {BlockFormat.MIN_BLOCK_SIZE, 100_000, BLOCK, 4 << 20}) {
      byte[] b = block(kind, size, size);
      assertTrue(deflateRatio(b) > 0.995, kind + ": deflate shrinks it");
      assertTrue(
          new IncompressibleProbe().looksIncompressible(ByteBuffer.wrap(b)),
          kind + " of " + size + " bytes");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "text",
        "mixed",
        "zeros",
        "repeated-4k",
        "repeated-30k",
        "lowercase",
        "small-ints",
        "random-with-text"
      })
  void blocksDeflateShrinksAreCompressed(String kind) throws CodecException {
    byte[] b = block(kind, BLOCK, 11);
    assertTrue(deflateRatio(b) < 0.95, kind + ": deflate does not shrink it");
    assertFalse(new IncompressibleProbe().looksIncompressible(ByteBuffer.wrap(b)), kind);
  }

  @Test
  void repeatedRandomBlobsOfAnyPeriodAreCompressed() {
    // A random blob repeated at least twice in the block, with periods from 64 bytes to 32 KiB
    // (deflate's window): the runs must not fall in step with the period and miss the repeats.
    Random r = new Random(3);
    IncompressibleProbe p = new IncompressibleProbe();
    for (int size : new int[] {BlockFormat.MIN_BLOCK_SIZE, 100_000, BLOCK, 1 << 20}) {
      for (int period = 64;
          period <= 32 * 1024 && 2 * period <= size;
          period = period * 11 / 10 + 1) {
        byte[] blob = new byte[period];
        r.nextBytes(blob);
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
          b[i] = blob[i % period];
        }
        assertFalse(
            p.looksIncompressible(ByteBuffer.wrap(b)), "period " + period + ", block " + size);
      }
    }
  }

  @Test
  void smallBlocksAreNotProbedAndTheBufferIsNotMoved() {
    IncompressibleProbe p = new IncompressibleProbe();
    byte[] random = block("random", 64 * 1024, 5);
    assertFalse(
        p.looksIncompressible(ByteBuffer.wrap(random, 0, IncompressibleProbe.MIN_BLOCK - 1)));
    // Only the remaining bytes count, from the buffer's position; position and limit stay.
    byte[] mixed = new byte[2 * BLOCK];
    System.arraycopy(block("text", BLOCK, 1), 0, mixed, 0, BLOCK);
    System.arraycopy(block("random", BLOCK, 2), 0, mixed, BLOCK, BLOCK);
    ByteBuffer buf = ByteBuffer.wrap(mixed);
    assertFalse(p.looksIncompressible(buf));
    buf.position(BLOCK);
    assertTrue(p.looksIncompressible(buf));
    assertEquals(BLOCK, buf.position());
    assertEquals(2 * BLOCK, buf.limit());
    ByteBuffer direct = ByteBuffer.allocateDirect(BLOCK);
    direct.put(block("random", BLOCK, 3)).flip();
    assertTrue(p.looksIncompressible(direct));
  }

  @Test
  void entropyOfUniformAndConstantBytes() {
    int[] uniform = new int[256];
    java.util.Arrays.fill(uniform, 64);
    // 8 bits, plus the Miller-Madow term (distinct - 1) / (2 n ln 2).
    assertEquals(
        8.0 + 255 / (2.0 * 256 * 64 * Math.log(2)),
        IncompressibleProbe.bits(uniform, 256 * 64),
        1e-9);
    int[] constant = new int[256];
    constant[7] = 4096;
    assertEquals(0.0, IncompressibleProbe.bits(constant, 4096), 1e-9);
  }

  @ParameterizedTest
  @ValueSource(strings = {"zlib", "libdeflate", "java", "lz4", "zstd"})
  void anEncoderWithTheProbeStoresRandomBlocksWithoutACodecCall(String name) throws IOException {
    BlockCodec codec = TestCodecs.exact(name);
    byte[] data = new byte[8 * BLOCK];
    for (int i = 0; i < 8; i++) {
      String kind = i % 2 == 0 ? "random" : "text";
      System.arraycopy(block(kind, BLOCK, i), 0, data, i * BLOCK, BLOCK);
    }
    byte[] seg;
    BlockStats stats;
    try (BlockEncoder e = new BlockEncoder(codec, true)) {
      seg = SegmentWriter.encode(e, BLOCK, data);
      stats = e.stats();
    }
    assertEquals(8, stats.blocks());
    assertEquals(4, stats.probedRawBlocks());
    assertEquals(4, stats.storedRawBlocks());
    assertEquals(4, stats.codecCalls(), "one call per compressible block, none for random ones");
    try (BlockDecoder d = new BlockDecoder(codec)) {
      assertArrayEquals(data, new SegmentInputStream(ByteBuffer.wrap(seg), d).readAllBytes());
    }
  }
}
