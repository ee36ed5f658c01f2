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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A cheap test, before the codec call, for blocks a deflate codec would not shrink: random or
 * already compressed bytes, for which deflate works hard (it is slowest on them) only for the block
 * to be stored raw.
 *
 * <p>It reads 64-byte runs spread over the block (one per KiB, at a pseudo-random place in it: 16
 * KiB of a 256 KiB block; at least 64 runs, at most 256) and calls the block incompressible only
 * when both hold:
 *
 * <ul>
 *   <li>the bytes' order-0 entropy is at least {@value #MIN_BITS} bits per byte, so Huffman coding
 *       could save at most about 1%;
 *   <li>at most {@value #MAX_REPEATS} of the runs' 8-byte sequences repeat one seen before, so
 *       there are next to no matches worth having for the LZ77 stage (repeated blocks of
 *       random-looking bytes, which deflate does shrink, show dozens to thousands). Shorter
 *       sequences would count the few constant bytes between a serializer's records: Kryo's class
 *       ids and lengths around 1,000 random bytes repeat as 4-byte sequences, which deflate cannot
 *       use.
 * </ul>
 *
 * A first look at a quarter of the runs ends the test for the usual, compressible block (entropy
 * under {@value #EARLY_BITS} bits): a few microseconds, against a millisecond or more for deflating
 * 256 KiB. Blocks under {@value #MIN_BLOCK} bytes are not tested.
 *
 * <p>A wrong "incompressible" only costs ratio (that block is stored raw), never data. Not
 * thread-safe; one per encoder.
 */
public final class IncompressibleProbe {
  static final int MIN_BLOCK = 16 * 1024;
  static final int RUN = 64;

  /** Runs per block: one per KiB, at least 64 (a quarter of a 16 KiB block), at most 256. */
  static final int MIN_RUNS = 64;

  static final int MAX_RUNS = 256;
  static final double EARLY_BITS = 7.6;
  static final double MIN_BITS = 7.9;
  static final int MAX_REPEATS = 16;
  private static final int TABLE_BITS = 14;

  private final int[] histogram = new int[256];
  private final long[] seen = new long[1 << TABLE_BITS];
  private final boolean[] used = new boolean[1 << TABLE_BITS];

  /** Whether the remaining bytes of {@code raw} look incompressible; reads without moving it. */
  public boolean looksIncompressible(ByteBuffer raw) {
    int length = raw.remaining();
    if (length < MIN_BLOCK) {
      return false;
    }
    int runs = Math.min(MAX_RUNS, Math.max(MIN_RUNS, length / 1024));
    int stride = length / runs;
    Arrays.fill(histogram, 0);
    // The first look: every fourth run.
    int looked = 0;
    for (int r = 0; r < runs; r += 4) {
      count(raw, raw.position() + start(r, stride));
      looked += RUN;
    }
    if (bits(histogram, looked) < EARLY_BITS) {
      return false;
    }
    // The histogram keeps the first look's runs; the other runs are added to it.
    Arrays.fill(used, false);
    ByteBuffer view = raw.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int repeats = 0;
    for (int r = 0; r < runs; r++) {
      int start = raw.position() + start(r, stride);
      if (r % 4 != 0) {
        count(raw, start);
      }
      for (int i = start; i <= start + RUN - 8; i++) {
        long v = view.getLong(i);
        int slot = (int) ((v * 0x9E3779B97F4A7C15L) >>> (64 - TABLE_BITS));
        if (used[slot] && seen[slot] == v) {
          repeats++;
        } else {
          used[slot] = true;
          seen[slot] = v;
        }
      }
    }
    return repeats <= MAX_REPEATS && bits(histogram, runs * RUN) >= MIN_BITS;
  }

  /**
   * Where run {@code r} starts: somewhere in the r-th stride, at a fixed pseudo-random place, so
   * that the runs do not fall in step with periodic data (a blob repeated every n bytes) and miss
   * its repeats.
   */
  static int start(int r, int stride) {
    int jitter = ((r + 1) * 0x9E3779B1) >>> 8;
    return r * stride + jitter % (stride - RUN + 1);
  }

  private void count(ByteBuffer raw, int start) {
    for (int i = start; i < start + RUN; i++) {
      histogram[raw.get(i) & 0xFF]++;
    }
  }

  /**
   * Order-0 entropy of the counted bytes, in bits per byte, with the Miller-Madow correction (a
   * sample of a few thousand bytes otherwise reads random bytes as visibly under 8 bits).
   */
  static double bits(int[] histogram, int total) {
    double sum = 0;
    int distinct = 0;
    for (int c : histogram) {
      if (c > 0) {
        sum += c * Math.log(c);
        distinct++;
      }
    }
    double nats = Math.log(total) - sum / total + (distinct - 1) / (2.0 * total);
    return nats / Math.log(2);
  }
}
