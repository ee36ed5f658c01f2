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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CorruptBlockException;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Frames encrypted with AES/CTR (Spark's IO encryption), through both segment readers. */
class EncryptedFrameTest {
  private static final int BLOCK = BlockFormat.MIN_BLOCK_SIZE;
  private static final byte[] KEY = key(1);
  private static final byte[] KNOWN = "KNOWN-PLAINTEXT-0123456789".getBytes(StandardCharsets.UTF_8);

  static Stream<BlockCodec> codecs() {
    return TestCodecs.all().stream();
  }

  private static byte[] key(int seed) {
    byte[] k = new byte[16];
    new Random(seed).nextBytes(k);
    return k;
  }

  /** Compressible text with the known plaintext in it, then random bytes (stored raw). */
  private static byte[] data() {
    byte[] text = new byte[3 * BLOCK];
    for (int i = 0; i < text.length; i++) {
      text[i] = KNOWN[i % KNOWN.length];
    }
    byte[] noise = new byte[2 * BLOCK + 100];
    new Random(7).nextBytes(noise);
    System.arraycopy(KNOWN, 0, noise, BLOCK / 2, KNOWN.length);
    byte[] all = Arrays.copyOf(text, text.length + noise.length);
    System.arraycopy(noise, 0, all, text.length, noise.length);
    return all;
  }

  private static byte[] segment(BlockCodec c, byte[] key, byte[] data) throws IOException {
    try (BlockEncoder e = new BlockEncoder(c, false, 0, key)) {
      return SegmentWriter.encode(e, BLOCK, data);
    }
  }

  private static byte[] readBuffered(byte[] segment, BlockCodec c, byte[] key) throws IOException {
    try (BlockDecoder d = new BlockDecoder(c, key)) {
      return new SegmentInputStream(ByteBuffer.wrap(segment), d).readAllBytes();
    }
  }

  private static byte[] readStreamed(byte[] segment, BlockCodec c, byte[] key) throws IOException {
    try (BlockDecoder d = new BlockDecoder(c, key)) {
      return new SegmentStreamDecoder(new ByteArrayInputStream(segment), d).readAllBytes();
    }
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void roundTripsThroughBothReaders(BlockCodec c) throws IOException {
    byte[] data = data();
    byte[] seg = segment(c, KEY, data);
    assertArrayEquals(data, readBuffered(seg, c, KEY));
    assertArrayEquals(data, readStreamed(seg, c, KEY));
    SegmentIndex index = SegmentIndex.parse(ByteBuffer.wrap(seg));
    int at = 0;
    for (int b = 0; b < index.blockCount(); b++) {
      FrameHeader h = FrameHeader.parse(ByteBuffer.wrap(seg), at);
      assertTrue(h.encrypted(), "block " + b + " is not encrypted");
      assertEquals(index.storedLength(b), h.storedLength());
      at += h.frameLength();
    }
    // The random blocks are stored raw: encrypted, the payload is the block plus the IV.
    FrameHeader last =
        FrameHeader.parse(ByteBuffer.wrap(seg), (int) index.offset(index.blockCount() - 1));
    assertTrue(last.storedRaw());
    assertEquals(last.rawLength() + FrameCipher.IV_LENGTH, last.storedLength());
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void noKnownPlaintextInTheBytes(BlockCodec c) throws IOException {
    byte[] data = data();
    assertTrue(contains(segment(c, null, data), KNOWN), "the plain segment shows the text");
    assertFalse(contains(segment(c, KEY, data), KNOWN), "the encrypted segment shows the text");
  }

  @Test
  void theSameBlockEncryptsDifferentlyEachTime() throws IOException {
    BlockCodec c = TestCodecs.all().get(0);
    byte[] data = data();
    assertFalse(Arrays.equals(segment(c, KEY, data), segment(c, KEY, data)), "IV reused");
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void aWrongKeyIsAClearFailure(BlockCodec c) throws IOException {
    byte[] seg = segment(c, KEY, data());
    for (boolean streamed : new boolean[] {false, true}) {
      CorruptBlockException e =
          assertThrows(
              CorruptBlockException.class,
              () -> {
                if (streamed) {
                  readStreamed(seg, c, key(2));
                } else {
                  readBuffered(seg, c, key(2));
                }
              });
      assertTrue(e.getMessage().contains("another key"), e.getMessage());
    }
  }

  @Test
  void anEncryptedFrameWithoutAKeyIsAClearFailure() throws IOException {
    BlockCodec c = TestCodecs.all().get(0);
    byte[] seg = segment(c, KEY, data());
    CorruptBlockException e =
        assertThrows(CorruptBlockException.class, () -> readBuffered(seg, c, null));
    assertTrue(e.getMessage().contains("no key"), e.getMessage());
  }

  @Test
  void aReaderWithAKeyReadsPlainFramesToo() throws IOException {
    BlockCodec c = TestCodecs.all().get(0);
    byte[] data = data();
    assertArrayEquals(data, readBuffered(segment(c, null, data), c, KEY));
  }

  @Test
  void everySingleBitFlipIsCaught() throws IOException {
    BlockCodec c = TestCodecs.all().get(0);
    byte[] data = Arrays.copyOf(data(), BLOCK + 300); // two frames: compressed, then short
    byte[] seg = segment(c, KEY, data);
    for (int i = 0; i < seg.length; i++) {
      for (int bit : new int[] {0, 7}) {
        byte[] bad = seg.clone();
        bad[i] ^= (byte) (1 << bit);
        for (boolean streamed : new boolean[] {false, true}) {
          int at = i;
          int b = bit;
          assertThrows(
              IOException.class,
              () -> {
                if (streamed) {
                  readStreamed(bad, c, KEY);
                } else {
                  readBuffered(bad, c, KEY);
                }
              },
              "bit " + b + " of byte " + at + " (streamed " + streamed + ")");
        }
      }
    }
  }
}
