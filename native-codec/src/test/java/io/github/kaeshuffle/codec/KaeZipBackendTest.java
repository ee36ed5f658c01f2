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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight;
import io.github.kaeshuffle.codec.kaezip.KaeZipReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kaezip backend through a real dlopen of a zlib-compatible stand-in library that counts calls,
 * its fallbacks, and the hardware guard that keeps KAEzip from loading on other CPUs.
 */
class KaeZipBackendTest {
  @Test
  void oneDeflateCallPerBlockAndNoInitPerBlock() throws Exception {
    BlockCodec c = Codecs.exact(TestCodecs.kaezipStandIn());
    assertEquals(CodecKind.KAEZIP.id(), c.name());
    assertTrue(c.description().contains("libzstandin.so"), c.description());
    int blocks = 37;
    int blockSize = 256 * 1024;
    byte[] raw = TestCodecs.data("text", blockSize, 7);
    byte[] out = new byte[c.maxCompressedLength(blockSize)];
    long deflates = StandInZlib.deflateCalls();
    long inits = StandInZlib.deflateInitCalls();
    long resets = StandInZlib.deflateResetCalls();
    try (BlockCompressor comp = c.newCompressor()) {
      for (int i = 0; i < blocks; i++) {
        comp.compress(raw, 0, raw.length, out, 0, out.length);
      }
      assertEquals(blocks, comp.calls());
    }
    assertEquals(blocks, StandInZlib.deflateCalls() - deflates, "deflate calls");
    assertEquals(1, StandInZlib.deflateInitCalls() - inits, "deflateInit2_ calls");
    assertEquals(blocks, StandInZlib.deflateResetCalls() - resets, "deflateReset calls");
  }

  @Test
  void decompressionGoesThroughTheLoadedLibrary() throws Exception {
    BlockCodec c = Codecs.exact(TestCodecs.kaezipStandIn());
    byte[] raw = TestCodecs.data("mixed", 100_000, 8);
    byte[] z = new byte[c.maxCompressedLength(raw.length)];
    byte[] back = new byte[raw.length];
    long inflates = StandInZlib.inflateCalls();
    try (BlockCompressor comp = c.newCompressor();
        BlockDecompressor d = c.newDecompressor()) {
      int n = comp.compress(raw, 0, raw.length, z, 0, z.length);
      d.decompress(z, 0, n, back, 0, raw.length);
    }
    assertEquals(1, StandInZlib.inflateCalls() - inflates, "inflate calls");
    org.junit.jupiter.api.Assertions.assertArrayEquals(raw, back);
  }

  @Test
  void outputsAreSizedWithTheLibrarysOwnBound() throws Exception {
    BlockCodec c = Codecs.exact(TestCodecs.kaezipStandIn());
    for (int n : new int[] {0, 1, 1000, 256 * 1024, 8 * 1024 * 1024}) {
      // The stand-in's compressBound is KAEzip's n + n/8 + 13, larger than zlib's.
      assertEquals(n + n / 8 + 13, c.maxCompressedLength(n));
    }
  }

  @Test
  void brokenLibrariesFallBackToZlibWithTheReason() throws Exception {
    String[][] cases = {
      {"/nonexistent/libz.so", "LIB_OPEN"},
      {TestCodecs.testLib("libnotzlib.so"), "LIB_SYMBOL"},
      {TestCodecs.testLib("libzfailinit.so"), "LIB_INIT"},
    };
    for (String[] k : cases) {
      CodecOptions o =
          CodecOptions.builder()
              .codec(CodecKind.KAEZIP)
              .kaezipLibrary(k[0])
              .kaezipSkipHardwareCheck(true)
              .build();
      Codecs.Selection s = Codecs.select(o);
      assertEquals(CodecKind.ZLIB.id(), s.codec().name(), s.reason());
      assertTrue(s.reason().contains(k[1]) && s.reason().contains(k[0]), s.reason());
      CodecException e = assertThrows(CodecException.class, () -> Codecs.exact(o));
      assertTrue(e.getMessage().contains(k[1]), e.getMessage());
    }
  }

  @Test
  void aLibraryThatAbortsIsNeverLoadedWithoutTheHardware() throws Exception {
    // On this host the guard says no, so the library that would kill the JVM is never opened.
    CodecOptions o =
        CodecOptions.builder()
            .codec(CodecKind.KAEZIP)
            .kaezipLibrary(TestCodecs.testLib("libabortonload.so"))
            .build();
    Codecs.Selection s = Codecs.select(o);
    assertEquals(CodecKind.ZLIB.id(), s.codec().name());
    assertTrue(s.reason().contains("KAEzip not used"), s.reason());
    Codecs.Selection auto = Codecs.select(o.toBuilder().codec(CodecKind.AUTO).build());
    assertFalse(auto.codec().name().equals(CodecKind.KAEZIP), auto.reason());
  }

  @Test
  void autoStartsAtKaezipThenLz4AndClimbsToZstd() throws Exception {
    CodecOptions withStandIn = TestCodecs.kaezipStandIn().toBuilder().codec(CodecKind.AUTO).build();
    assertEquals(CodecKind.KAEZIP.id(), Codecs.select(withStandIn).codec().name());
    CodecOptions noKae =
        CodecOptions.builder()
            .codec(CodecKind.AUTO)
            .kaezipLibrary("/nonexistent/libz.so")
            .kaezipSkipHardwareCheck(true)
            .build();
    Codecs.Selection s = Codecs.select(noKae);
    assertEquals(CodecKind.LZ4.id(), s.codec().name());
    assertTrue(s.reason().contains("kaezip not used"), s.reason());
    List<String> ladder = new ArrayList<>();
    for (BlockCodec c : Codecs.ladder(noKae)) {
      ladder.add(c.name() + " " + c.level());
    }
    assertEquals(Arrays.asList("lz4 1", "zstd 1", "zstd 3"), ladder);
    List<BlockCodec> hardware = Codecs.ladder(withStandIn);
    assertEquals(CodecKind.KAEZIP.id(), hardware.get(0).name());
    assertEquals(3, hardware.size());
    List<BlockCodec> pinned = Codecs.ladder(noKae.toBuilder().codec(CodecKind.ZSTD).build());
    assertEquals(1, pinned.size());
    assertEquals(CodecKind.ZSTD.id(), pinned.get(0).name());
  }

  @Test
  void libdeflateFallsBackToZlibWhenItsLibraryIsMissing() throws Exception {
    CodecOptions noLibdeflate =
        CodecOptions.builder()
            .codec(CodecKind.LIBDEFLATE)
            .libdeflateLibrary("/nonexistent/ld.so")
            .build();
    Codecs.Selection s = Codecs.select(noLibdeflate);
    assertEquals(CodecKind.ZLIB.id(), s.codec().name());
    assertTrue(s.reason().contains("libdeflate not used"), s.reason());
  }

  @Test
  void theRealHostIsJudgedByThePreflight() throws CodecException {
    KaeZipReport r =
        KaeZipPreflight.logOnce(CodecOptions.builder().codec(CodecKind.KAEZIP).build());
    if (!"aarch64".equals(NativeLoader.arch(System.getProperty("os.arch")))) {
      assertFalse(r.hardwareInUse(), r.text());
      Codecs.Selection s = Codecs.select(CodecOptions.builder().codec(CodecKind.KAEZIP).build());
      assertEquals(CodecKind.ZLIB.id(), s.codec().name(), s.reason());
      assertTrue(s.reason().contains("KAEzip not used (KAEzip verdict: not in use"), s.reason());
    }
  }

  @Test
  void badOptionsAreRejectedWithTheAllowedValues() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> CodecOptions.builder().codec("gzip").build());
    assertTrue(
        e.getMessage().contains("auto, kaezip, libdeflate, zlib, java, lz4, zstd"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CodecOptions.builder().codec("zlib").level(10).build());
    assertTrue(e.getMessage().contains("1 to 9"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> CodecOptions.builder().codec("zstd").level(0).build());
    assertTrue(e.getMessage().contains("1 to 22"), e.getMessage());
    CodecOptions.builder().codec("libdeflate").level(12).build();
  }
}
