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
package io.github.kaeshuffle.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every backend on bad input: truncated, bit-flipped, random, with wrong declared lengths or
 * trailing bytes. Each must end in an exception, never a crash, a hang or a write outside the
 * destination (guard bytes around it are checked after every call).
 */
class HostileInputTest {
  static Stream<BlockCodec> codecs() {
    return TestCodecs.all().stream();
  }

  private static byte[] compress(BlockCodec c, byte[] raw) throws CodecException {
    try (BlockCompressor comp = c.newCompressor()) {
      byte[] out = new byte[c.maxCompressedLength(raw.length)];
      int n = comp.compress(raw, 0, raw.length, out, 0, out.length);
      return Arrays.copyOf(out, n);
    }
  }

  /** Decompresses into a guarded array; returns normally only if the output is exactly right. */
  private static void decodeOrThrow(BlockDecompressor d, byte[] in, int rawLength, byte[] expect)
      throws CodecException {
    byte[] out = new byte[rawLength + 64];
    Arrays.fill(out, (byte) 0x5A);
    d.decompress(in, 0, in.length, out, 32, rawLength);
    for (int i = 0; i < 32; i++) {
      assertEquals((byte) 0x5A, out[i], "wrote before the destination");
      assertEquals((byte) 0x5A, out[out.length - 1 - i], "wrote past the destination");
    }
    if (expect != null) {
      assertArrayEquals(expect, Arrays.copyOfRange(out, 32, 32 + rawLength));
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void truncatedBlocksAreRejected(BlockCodec c) throws Exception {
    byte[] raw = TestCodecs.data("text", 40_000, 1);
    byte[] z = compress(c, raw);
    try (BlockDecompressor d = c.newDecompressor()) {
      for (int len = 0; len < z.length; len += Math.max(1, z.length / 300)) {
        byte[] cut = Arrays.copyOf(z, len);
        assertThrows(
            CodecException.class,
            () -> decodeOrThrow(d, cut, raw.length, null),
            c.name() + " accepted a block truncated to " + len + " of " + z.length + " bytes");
      }
      decodeOrThrow(d, z, raw.length, raw); // the context still works after all those errors
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void wrongDeclaredLengthsAreRejected(BlockCodec c) throws Exception {
    byte[] raw = TestCodecs.data("mixed", 30_000, 2);
    byte[] z = compress(c, raw);
    try (BlockDecompressor d = c.newDecompressor()) {
      for (int wrong : new int[] {0, 1, raw.length - 1, raw.length + 1, raw.length * 4}) {
        assertThrows(
            CorruptBlockException.class,
            () -> decodeOrThrow(d, z, wrong, null),
            c.name() + " accepted raw length " + wrong + " for a " + raw.length + "-byte block");
      }
      byte[] trailing = Arrays.copyOf(z, z.length + 5);
      assertThrows(
          CorruptBlockException.class,
          () -> decodeOrThrow(d, trailing, raw.length, null),
          c.name() + " accepted trailing bytes");
      decodeOrThrow(d, z, raw.length, raw);
    }
  }

  /**
   * Random bit flips and random garbage: a flipped stream may by chance still decode to the right
   * length (deflate and lz4 carry no checksum of their own; the frame's CRC32C catches that), but
   * whatever happens must be an exception or a correctly sized output, never a crash.
   */
  @ParameterizedTest
  @MethodSource("codecs")
  void mutatedAndRandomInputNeverCrashes(BlockCodec c) throws Exception {
    Random r = new Random(c.name().hashCode());
    byte[] raw = TestCodecs.data("text", 20_000, 3);
    byte[] z = compress(c, raw);
    int rejected = 0;
    int trials = 3000;
    try (BlockDecompressor d = c.newDecompressor()) {
      for (int t = 0; t < trials; t++) {
        byte[] m;
        if (t % 3 == 0) {
          m = new byte[1 + r.nextInt(2000)];
          r.nextBytes(m);
        } else {
          m = z.clone();
          for (int k = 1 + r.nextInt(4); k > 0; k--) {
            m[r.nextInt(m.length)] ^= (byte) (1 << r.nextInt(8));
          }
        }
        try {
          decodeOrThrow(d, m, raw.length, null);
        } catch (CodecException e) {
          rejected++;
        }
      }
      decodeOrThrow(d, z, raw.length, raw);
    }
    if (rejected < trials / 2) {
      fail(c.name() + " rejected only " + rejected + " of " + trials + " mutated inputs");
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void destinationsThatAreTooSmallAreRefusedBeforeTheCall(BlockCodec c) throws Exception {
    byte[] raw = TestCodecs.data("random", 10_000, 4);
    int bound = c.maxCompressedLength(raw.length);
    try (BlockCompressor comp = c.newCompressor();
        BlockDecompressor d = c.newDecompressor()) {
      assertThrows(
          IllegalArgumentException.class,
          () -> comp.compress(raw, 0, raw.length, new byte[bound - 1], 0, bound - 1));
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> comp.compress(raw, 0, raw.length + 1, new byte[bound], 0, bound));
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> comp.compress(raw, -1, 10, new byte[bound], 0, bound));
      assertThrows(
          IllegalArgumentException.class,
          () -> comp.compress(ByteBuffer.wrap(raw), ByteBuffer.allocateDirect(bound - 1)));
      byte[] z = compress(c, raw);
      assertThrows(
          IndexOutOfBoundsException.class,
          () -> d.decompress(z, 0, z.length, new byte[raw.length - 1], 0, raw.length));
      assertThrows(
          IllegalArgumentException.class,
          () -> d.decompress(ByteBuffer.wrap(z), ByteBuffer.allocate(raw.length - 1), raw.length));
      assertThrows(
          java.nio.ReadOnlyBufferException.class,
          () ->
              d.decompress(
                  ByteBuffer.wrap(z),
                  ByteBuffer.allocate(raw.length).asReadOnlyBuffer(),
                  raw.length));
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void closedContextsRefuseWork(BlockCodec c) throws Exception {
    BlockCompressor comp = c.newCompressor();
    BlockDecompressor d = c.newDecompressor();
    comp.close();
    comp.close(); // idempotent
    d.close();
    byte[] raw = new byte[100];
    byte[] out = new byte[c.maxCompressedLength(100)];
    assertThrows(IllegalStateException.class, () -> comp.compress(raw, 0, 100, out, 0, out.length));
    assertThrows(IllegalStateException.class, () -> d.decompress(out, 0, 10, raw, 0, 100));
  }

  /** Blocks written by any deflate backend decode with any other: mixed clusters just work. */
  @org.junit.jupiter.api.Test
  void deflateBackendsReadEachOthersBlocks() throws Exception {
    for (String kind : new String[] {"text", "random", "mixed"}) {
      byte[] raw = TestCodecs.data(kind, 100_000, 5);
      for (BlockCodec writer : TestCodecs.deflateFamily()) {
        byte[] z = compress(writer, raw);
        for (BlockCodec reader : TestCodecs.deflateFamily()) {
          try (BlockDecompressor d = reader.newDecompressor()) {
            decodeOrThrow(d, z, raw.length, raw);
          }
        }
      }
    }
  }
}
