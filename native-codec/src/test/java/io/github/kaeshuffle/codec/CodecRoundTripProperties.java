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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Round trips through every backend: any data, any size from empty to past a block, heap, direct
 * and read-only buffers in every mix, at offsets inside larger buffers whose guard bytes must stay
 * untouched (an out-of-bounds write would change them).
 */
class CodecRoundTripProperties {
  private static final Map<String, BlockCodec> CODECS = new ConcurrentHashMap<>();
  private static final byte GUARD = (byte) 0xA5;
  private static final int PAD = 13;

  private static BlockCodec codec(String name) {
    return CODECS.computeIfAbsent(name, TestCodecs::exact);
  }

  @Provide
  Arbitrary<String> codecs() {
    return Arbitraries.of("zlib", "kaezip", "libdeflate", "java", "lz4", "zstd");
  }

  @Provide
  Arbitrary<Integer> sizes() {
    return Arbitraries.oneOf(
        Arbitraries.of(0, 1, 2, 16 * 1024, 256 * 1024, 256 * 1024 + 1, 1024 * 1024),
        Arbitraries.integers().between(0, 70_000));
  }

  @Provide
  Arbitrary<String> kinds() {
    return Arbitraries.of("text", "random", "zeros", "mixed");
  }

  @Provide
  Arbitrary<String> buffers() {
    return Arbitraries.of(
        "array",
        "heap",
        "direct",
        "heap-to-direct",
        "direct-to-heap",
        "readonly-heap",
        "readonly-direct");
  }

  @Property(tries = 400)
  void roundTripRestoresTheBlock(
      @ForAll("codecs") String name,
      @ForAll("sizes") int size,
      @ForAll("kinds") String kind,
      @ForAll("buffers") String buffers,
      @ForAll long seed)
      throws Exception {
    BlockCodec c = codec(name);
    byte[] raw = TestCodecs.data(kind, size, seed);
    int bound = c.maxCompressedLength(size);
    assertTrue(bound >= size, "bound " + bound + " below raw size " + size);
    try (BlockCompressor comp = c.newCompressor();
        BlockDecompressor dec = c.newDecompressor()) {
      byte[] compressed;
      byte[] restored;
      if (buffers.equals("array")) {
        byte[] dst = guarded(bound);
        int n = comp.compress(raw, 0, size, dst, PAD, bound);
        assertTrue(n > 0 && n <= bound);
        assertGuards(dst);
        compressed = Arrays.copyOfRange(dst, PAD, PAD + n);
        byte[] out = guarded(size);
        dec.decompress(dst, PAD, n, out, PAD, size);
        assertGuards(out);
        restored = Arrays.copyOfRange(out, PAD, PAD + size);
      } else {
        boolean srcDirect = buffers.startsWith("direct") || buffers.equals("readonly-direct");
        boolean dstDirect = buffers.equals("direct") || buffers.equals("heap-to-direct");
        ByteBuffer src = buffer(raw, srcDirect);
        if (buffers.startsWith("readonly")) {
          src = src.asReadOnlyBuffer();
        }
        ByteBuffer dst = guardedBuffer(bound, dstDirect);
        int n = comp.compress(src, dst);
        assertEquals(src.limit(), src.position(), "source fully consumed");
        assertEquals(PAD + n, dst.position(), "destination advanced by the compressed length");
        compressed = new byte[n];
        dst.duplicate().position(PAD).get(compressed);
        assertBufferGuards(dst);
        ByteBuffer csrc = buffer(compressed, dstDirect);
        ByteBuffer out = guardedBuffer(size, srcDirect);
        assertEquals(size, dec.decompress(csrc, out, size));
        assertEquals(PAD + size, out.position());
        assertBufferGuards(out);
        restored = new byte[size];
        out.duplicate().position(PAD).get(restored);
      }
      assertArrayEquals(raw, restored);
      assertEquals(1, comp.calls());
      assertEquals(1, dec.calls());
      // The same contexts are reused for the next block.
      byte[] again = new byte[size];
      byte[] c2 = new byte[bound];
      int n2 = comp.compress(raw, 0, size, c2, 0, bound);
      dec.decompress(c2, 0, n2, again, 0, size);
      assertArrayEquals(raw, again);
      assertEquals(compressed.length, n2, "reused context gives the same output size");
    }
  }

  private static byte[] guarded(int len) {
    byte[] b = new byte[PAD + len + PAD];
    Arrays.fill(b, GUARD);
    return b;
  }

  private static void assertGuards(byte[] b) {
    for (int i = 0; i < PAD; i++) {
      assertEquals(GUARD, b[i], "guard byte before the destination was overwritten");
    }
    for (int i = b.length - PAD; i < b.length; i++) {
      assertEquals(GUARD, b[i], "guard byte after the destination was overwritten");
    }
  }

  private static ByteBuffer buffer(byte[] data, boolean direct) {
    ByteBuffer b =
        direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
    b.put(data).flip();
    return b;
  }

  /** A buffer with guard bytes around [PAD, PAD + len); position PAD, limit PAD + len. */
  private static ByteBuffer guardedBuffer(int len, boolean direct) {
    int cap = PAD + len + PAD;
    ByteBuffer b = direct ? ByteBuffer.allocateDirect(cap) : ByteBuffer.allocate(cap);
    for (int i = 0; i < cap; i++) {
      b.put(i, GUARD);
    }
    b.position(PAD).limit(PAD + len);
    return b;
  }

  private static void assertBufferGuards(ByteBuffer b) {
    ByteBuffer all = b.duplicate().clear();
    for (int i = 0; i < PAD; i++) {
      assertEquals(GUARD, all.get(i), "guard byte before the destination was overwritten");
    }
    for (int i = all.capacity() - PAD; i < all.capacity(); i++) {
      assertEquals(GUARD, all.get(i), "guard byte after the destination was overwritten");
    }
  }
}
