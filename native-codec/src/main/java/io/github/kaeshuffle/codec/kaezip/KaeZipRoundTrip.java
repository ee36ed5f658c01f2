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
package io.github.kaeshuffle.codec.kaezip;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.BlockCompressor;
import io.github.kaeshuffle.codec.BlockDecompressor;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecFormat;
import io.github.kaeshuffle.codec.Codecs;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * The preflight's proof that the engine works: 1 MiB compressed and decompressed through the KAEzip
 * library, the bytes checked and read back by software zlib, while the accelerators' free queues
 * are watched. KAEzip falls back to software inside its own library when it finds no device, so the
 * round trip alone proves nothing: the engine counts as in use only when the free queues drop while
 * a session is open.
 */
final class KaeZipRoundTrip {
  private static final int ROUND_TRIP_BYTES = 1 << 20;

  private KaeZipRoundTrip() {}

  /**
   * The round trip's checks added to {@code report}, and the verdict.
   *
   * @param zips the accelerators whose queues are watched
   * @param hardware whether the host checks found a usable accelerator
   */
  static KaeZipReport run(
      BlockCodec codec,
      String library,
      List<Path> zips,
      boolean hardware,
      KaeZipReport.Builder report) {
    long before = freeQueues(zips);
    byte[] raw = sample();
    long during;
    try (BlockCompressor c = codec.newCompressor();
        BlockDecompressor d = codec.newDecompressor();
        BlockDecompressor z = Codecs.software(CodecFormat.DEFLATE).newDecompressor()) {
      during = freeQueues(zips);
      byte[] packed = new byte[codec.maxCompressedLength(raw.length)];
      int n = c.compress(raw, 0, raw.length, packed, 0, packed.length);
      byte[] back = new byte[raw.length];
      d.decompress(packed, 0, n, back, 0, raw.length);
      byte[] soft = new byte[raw.length];
      z.decompress(packed, 0, n, soft, 0, raw.length);
      boolean same = Arrays.equals(raw, back) && Arrays.equals(raw, soft);
      report.add(
          "round trip",
          same,
          raw.length
              + " bytes -> "
              + n
              + (same ? ", decompressed back, and software zlib reads them" : ": bytes differ"));
      if (!same) {
        return report.verdict(false, "not in use: the round trip gave different bytes");
      }
    } catch (CodecException e) {
      report.add("round trip", false, e.getMessage());
      return report.verdict(false, "not in use: " + report.firstFailure());
    }
    boolean took = before >= 0 && during >= 0 && during < before;
    report.add(
        "hardware queues",
        took,
        before < 0
            ? "no available_instances to watch"
            : "available_instances " + before + " -> " + during + " while a session was open");
    if (took && hardware) {
      return report.verdict(true, "hardware in use (" + library + ")");
    }
    return report.verdict(
        false,
        "not confirmed: the library works, but no hardware queue was taken while a session was"
            + " open"
            + (hardware ? "" : " (hardware check skipped: a stand-in library?)"));
  }

  /** Free queues over the accelerators, or -1 when none reports them. */
  private static long freeQueues(List<Path> zips) {
    long total = -1;
    for (Path zip : zips) {
      OptionalLong n = KaeZipHost.availableInstances(zip);
      if (n.isPresent()) {
        total = Math.max(total, 0) + n.getAsLong();
      }
    }
    return total;
  }

  /** 1 MiB of text-like bytes: compressible, as shuffle data mostly is. */
  private static byte[] sample() {
    byte[] b = new byte[ROUND_TRIP_BYTES];
    String words = "kae shuffle preflight round trip through the engine ";
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) words.charAt((i * 7 + i / 97) % words.length());
    }
    return b;
  }
}
