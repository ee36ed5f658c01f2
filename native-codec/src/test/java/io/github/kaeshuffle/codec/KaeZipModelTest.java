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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The KAEzip cost model behaves as KAEzip is described to (docs/native-codec.md, KAEzip rules):
 * real zlib bytes any zlib reads, a session per init, requests of at most 1 MiB, each compressed on
 * its own and ending its own block, a bounded number of contexts, the KAEzip bound, a 4 KB window
 * at level 1, no raw deflate. Counts only, never times.
 */
class KaeZipModelTest {
  private static final int BLOCK = 256 * 1024;

  @AfterEach
  void defaults() {
    KaeZipModel.defaults();
  }

  private static long count(int which, int dir) {
    return KaeZipModel.counter(which, dir);
  }

  private static byte[] compress(BlockCodec codec, byte[] raw) throws CodecException {
    try (BlockCompressor c = codec.newCompressor()) {
      byte[] out = new byte[codec.maxCompressedLength(raw.length)];
      int n = c.compress(raw, 0, raw.length, out, 0, out.length);
      return java.util.Arrays.copyOf(out, n);
    }
  }

  private static byte[] decompress(BlockCodec codec, byte[] packed, int rawLength)
      throws CodecException {
    try (BlockDecompressor d = codec.newDecompressor()) {
      byte[] out = new byte[rawLength];
      d.decompress(packed, 0, packed.length, out, 0, rawLength);
      return out;
    }
  }

  @Test
  void realZlibBytesOneSessionPerContextOneRequestPerMiB() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    BlockCodec zlib = TestCodecs.exact(CodecKind.ZLIB);
    byte[] small = TestCodecs.data("text", BLOCK, 1);
    byte[] large = TestCodecs.data("text", (5 << 20) / 2, 2); // 2.5 MiB: three requests
    long sessions0 = count(KaeZipModel.SESSIONS, KaeZipModel.COMPRESS);
    long requests0 = count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS);
    try (BlockCompressor c = model.newCompressor()) {
      for (byte[] raw : List.of(small, large)) {
        byte[] out = new byte[model.maxCompressedLength(raw.length)];
        int n = c.compress(raw, 0, raw.length, out, 0, out.length);
        byte[] packed = java.util.Arrays.copyOf(out, n);
        assertArrayEquals(raw, decompress(zlib, packed, raw.length), "zlib reads it");
        assertArrayEquals(raw, decompress(model, packed, raw.length), "the model reads it");
      }
    }
    assertEquals(1, count(KaeZipModel.SESSIONS, KaeZipModel.COMPRESS) - sessions0);
    assertEquals(1 + 3, count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS) - requests0);
    assertEquals(0, KaeZipModel.liveSessions(), "every session ended with its context");
  }

  @Test
  void kaezipsBoundAndItsSmallWindowAtLevelOne() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    assertEquals(BLOCK + BLOCK / 8 + 13, model.maxCompressedLength(BLOCK));
    byte[] raw = TestCodecs.data("text", BLOCK, 3);
    int modelLength = compress(model, raw).length;
    int zlibLength = compress(TestCodecs.exact(CodecKind.ZLIB), raw).length;
    assertTrue(
        modelLength > zlibLength,
        "a 4 KB window compresses less than zlib level 1: " + modelLength + " vs " + zlibLength);
  }

  @Test
  void hardwareFaultsGoToSoftwareBlockByBlock() throws Exception {
    KaeZipModel.configure(0, 0, 2, 3); // every third call with input fails
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    byte[] raw = TestCodecs.data("text", 12 * BLOCK + 100, 5);
    long faults0 = KaeZipModel.faults();
    byte[] segment;
    io.github.kaeshuffle.format.BlockStats written;
    try (io.github.kaeshuffle.format.BlockEncoder enc =
        new io.github.kaeshuffle.format.BlockEncoder(model)) {
      segment = io.github.kaeshuffle.format.SegmentWriter.encode(enc, BLOCK, raw);
      written = enc.stats();
      assertTrue(!enc.failed(), "a hardware fault is not a failed encode");
    }
    try (io.github.kaeshuffle.format.BlockDecoder dec =
        new io.github.kaeshuffle.format.BlockDecoder(model)) {
      byte[] back =
          new io.github.kaeshuffle.format.SegmentInputStream(java.nio.ByteBuffer.wrap(segment), dec)
              .readAllBytes();
      assertArrayEquals(raw, back, "no byte lost or changed");
      assertTrue(dec.stats().softwareBlocks() > 0, "reads fell back: " + dec.stats());
      assertTrue(!dec.failed());
    }
    assertTrue(written.softwareBlocks() > 0, "writes fell back: " + written);
    assertEquals(13, written.blocks());
    assertTrue(KaeZipModel.faults() - faults0 >= written.softwareBlocks());
  }

  @Test
  void blocksUnderTheMinimumGoToSoftwareWithoutARequest() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    byte[] tiny = TestCodecs.data("text", 1000, 6);
    byte[] big = TestCodecs.data("text", 64 * 1024, 7);
    long requests0 = count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS);
    try (io.github.kaeshuffle.format.BlockEncoder enc =
            new io.github.kaeshuffle.format.BlockEncoder(model, false, 4096);
        io.github.kaeshuffle.format.BlockDecoder dec =
            new io.github.kaeshuffle.format.BlockDecoder(model)) {
      for (byte[] raw : List.of(tiny, big)) {
        byte[] seg = io.github.kaeshuffle.format.SegmentWriter.encode(enc, BLOCK, raw);
        byte[] back =
            new io.github.kaeshuffle.format.SegmentInputStream(java.nio.ByteBuffer.wrap(seg), dec)
                .readAllBytes();
        assertArrayEquals(raw, back);
      }
      assertEquals(1, enc.stats().smallSoftwareBlocks(), "the 1,000-byte block");
      assertEquals(2, enc.stats().codecCalls());
    }
    assertEquals(
        1, count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS) - requests0, "only the large block");
  }

  /**
   * Writes {@code raw} as a codec stream around a serializer does, one deflate call per write of
   * {@code write} bytes, reading the output {@code outChunk} bytes at a time; then finishes.
   */
  private static byte[] streamCompress(byte[] raw, int write, int outChunk) throws Exception {
    long h = KaeZipModel.streamOpen(true, 1);
    assertTrue(h > 0, "stream init: " + h);
    java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
    byte[] out = new byte[outChunk];
    try {
      int at = 0;
      boolean ended = false;
      while (!ended) {
        int len = Math.min(write, raw.length - at);
        long r = KaeZipModel.streamCall(h, true, raw, at, len, out, 0, out.length, len > 0 ? 0 : 4);
        assertTrue(r >= 0, "zlib error " + r);
        packed.write(out, 0, (int) (r & ((1 << 30) - 1)));
        at += (int) ((r >>> 30) & ((1 << 30) - 1));
        ended = ((r >>> 60) & 1) == 1;
      }
    } finally {
      KaeZipModel.streamClose(h, true);
    }
    return packed.toByteArray();
  }

  /** Software zlib's inflate (java.util.zip), which must read whatever the model wrote. */
  private static byte[] softwareInflate(byte[] packed, int rawLength) throws Exception {
    java.util.zip.Inflater inflater = new java.util.zip.Inflater();
    try {
      inflater.setInput(packed);
      byte[] out = new byte[rawLength];
      int n = 0;
      while (n < rawLength && !inflater.finished()) {
        n += inflater.inflate(out, n, rawLength - n);
      }
      assertTrue(inflater.finished(), "the stream ends");
      return out;
    } finally {
      inflater.end();
    }
  }

  @Test
  void tinyWritesInflateAsTheStudyMeasuredAndZlibsOwnBytesDoNot() throws Exception {
    byte[] raw = TestCodecs.data("text", 64 * 1024, 8);
    long requests0 = count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS);
    byte[] hardware = streamCompress(raw, 8, 64 * 1024);
    assertEquals(
        raw.length / 8 + 1,
        count(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS) - requests0,
        "one request per write and one for the stream's end");
    KaeZipModel.zlibBytes(true);
    byte[] zlib = streamCompress(raw, 8, 64 * 1024);
    assertArrayEquals(raw, softwareInflate(hardware, raw.length), "zlib reads the hardware's");
    assertArrayEquals(raw, softwareInflate(zlib, raw.length));
    assertTrue(
        hardware.length > 1.5 * raw.length,
        "8-byte requests each end a block: " + hardware.length + " bytes for " + raw.length);
    assertTrue(zlib.length < raw.length / 2, "zlib buffers them: " + zlib.length);
  }

  @Test
  void aRequestsOutputLargerThanTheCallersSpaceIsCopiedOutOverCalls() throws Exception {
    byte[] raw = TestCodecs.data("text", 20_000, 9);
    byte[] packed = streamCompress(raw, 1000, 7);
    assertArrayEquals(raw, softwareInflate(packed, raw.length));
  }

  @Test
  void oneRequestPerBlockMakesTheSameBytesEitherWay() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    byte[] raw = TestCodecs.data("text", BLOCK, 10);
    byte[] hardware = compress(model, raw);
    KaeZipModel.zlibBytes(true);
    assertArrayEquals(hardware, compress(model, raw), "a whole block is one request");
  }

  @Test
  void rawDeflateIsRefused() {
    assertEquals(-2, KaeZipModel.rawDeflateInit());
  }

  @Test
  void callersBeyondTheContextsWait() throws Exception {
    KaeZipModel.configure(2_000, 0, 1, 0); // 2 ms per request, one context per direction
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    byte[] raw = TestCodecs.data("text", 16 * 1024, 4);
    long waits0 = count(KaeZipModel.WAITS, KaeZipModel.COMPRESS);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<byte[]>> results = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        results.add(
            pool.submit(
                () -> {
                  byte[] last = null;
                  for (int i = 0; i < 10; i++) {
                    last = compress(model, raw);
                  }
                  return last;
                }));
      }
      for (Future<byte[]> f : results) {
        assertArrayEquals(raw, decompress(model, f.get(), raw.length));
      }
    } finally {
      pool.shutdown();
    }
    assertTrue(
        count(KaeZipModel.WAITS, KaeZipModel.COMPRESS) > waits0, "three callers, one context");
  }
}
