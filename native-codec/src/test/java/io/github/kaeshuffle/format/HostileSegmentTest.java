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
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CorruptBlockException;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * 120,000 mutated and truncated segments (and concatenations of segments), 20,000 per backend,
 * through both readers: every one must either read back exactly the original bytes or fail with
 * {@link CorruptBlockException} - never another exception, a hang, a crash, or wrong bytes. The
 * gate ({@code kae.tests=gate}) runs a fifth of them; the fuzz profile goes further.
 */
class HostileSegmentTest {
  private static final int BLOCK = 16 * 1024;
  private static final int PER_BACKEND =
      "gate".equals(System.getProperty("kae.tests")) ? 4_000 : 20_000;

  private static byte[] readBuffered(byte[] data, BlockDecoder d) throws IOException {
    return new SegmentInputStream(ByteBuffer.wrap(data), d).readAllBytes();
  }

  private static byte[] readStreamed(byte[] data, BlockDecoder d) throws IOException {
    return new SegmentStreamDecoder(new ByteArrayInputStream(data), d).readAllBytes();
  }

  /**
   * A fetched block is never empty (Spark does not fetch blocks of size 0): one whose stream ends
   * at once lost its bytes, e.g. a .data file cut short before the segment, and must not read as a
   * partition without records. As a plain stream of segments, empty is zero segments.
   */
  @Test
  void anEmptyStreamIsCorruptOnlyAsAFetchedBlock() throws IOException {
    assertArrayEquals(new byte[0], readStreamed(new byte[0], null));
    try (SegmentStreamDecoder s =
        new SegmentStreamDecoder(new ByteArrayInputStream(new byte[0]), null, true)) {
      s.read();
      fail("an empty fetched block was read as empty");
    } catch (CorruptBlockException expected) {
      assertTrue(expected.getMessage().contains("before its first segment"), expected.getMessage());
    }
  }

  @Test
  void mutatedSegmentsFailCleanlyOnEveryBackend() throws Exception {
    List<BlockCodec> codecs = TestCodecs.all();
    long total = 0;
    long rejected = 0;
    for (BlockCodec codec : codecs) {
      Random r = new Random(codec.name().hashCode());
      // Two segments back to back: text that compresses, then random data stored raw.
      byte[] a = TestCodecs.data("text", 3 * BLOCK + 123, 1);
      byte[] b = TestCodecs.data("random", BLOCK + 7, 2);
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      try (BlockEncoder enc = new BlockEncoder(codec)) {
        all.write(SegmentWriter.encode(enc, BLOCK, a));
        all.write(SegmentWriter.encode(enc, BLOCK, b));
      }
      byte[] original = all.toByteArray();
      byte[] expected = new byte[a.length + b.length];
      System.arraycopy(a, 0, expected, 0, a.length);
      System.arraycopy(b, 0, expected, a.length, b.length);
      try (BlockDecoder d = new BlockDecoder(codec)) {
        for (int i = 0; i < PER_BACKEND; i++) {
          byte[] m = mutate(original, r);
          for (int reader = 0; reader < 2; reader++) {
            total++;
            try {
              byte[] back = reader == 0 ? readBuffered(m, d) : readStreamed(m, d);
              // Only a mutation that kept whole segments intact may read back, and then exactly
              // the bytes of those segments (e.g. a cut right after the first segment).
              assertTrue(
                  Arrays.equals(back, expected) || Arrays.equals(back, a),
                  codec.name() + ": mutation " + i + " read wrong bytes");
            } catch (CorruptBlockException e) {
              rejected++;
            } catch (IOException | RuntimeException e) {
              fail(codec.name() + ": mutation " + i + " raised " + e, e);
            }
          }
        }
        // The decoder still works after all of that.
        assertArrayEquals(expected, readBuffered(original, d));
      }
    }
    assertTrue(codecs.size() >= 5, "only " + codecs.size() + " backends");
    assertTrue(rejected > total * 0.9, "only " + rejected + " of " + total + " rejected");
  }

  private static byte[] mutate(byte[] in, Random r) {
    byte[] m = in.clone();
    switch (r.nextInt(6)) {
      case 0: // flip 1-3 bits
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
          m[r.nextInt(m.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return m;
      case 1: // overwrite a length or offset field with an extreme value
        int at = r.nextInt(Math.max(1, m.length - 4));
        int v = new int[] {0, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 24, 20}[r.nextInt(6)];
        ByteBuffer.wrap(m).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(at, v);
        return m;
      case 2: // truncate
        return Arrays.copyOf(m, 1 + r.nextInt(m.length - 1));
      case 3: // cut a range out
        int from = r.nextInt(m.length);
        int to = Math.min(m.length, from + 1 + r.nextInt(200));
        byte[] cut = new byte[m.length - (to - from)];
        System.arraycopy(m, 0, cut, 0, from);
        System.arraycopy(m, to, cut, from, m.length - to);
        return cut;
      case 4: // duplicate a range
        int s = r.nextInt(m.length);
        int len = Math.min(m.length - s, 1 + r.nextInt(300));
        byte[] dup = new byte[m.length + len];
        System.arraycopy(m, 0, dup, 0, s + len);
        System.arraycopy(m, s, dup, s + len, m.length - s);
        return dup;
      default: // random bytes over a range
        int p = r.nextInt(m.length);
        for (int k = p; k < Math.min(m.length, p + 1 + r.nextInt(64)); k++) {
          m[k] = (byte) r.nextInt();
        }
        return m;
    }
  }
}
