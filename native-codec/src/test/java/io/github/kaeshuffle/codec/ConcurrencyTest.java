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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One shared codec per backend, a context per thread: many threads at once, every backend. */
class ConcurrencyTest {
  @Test
  void manyThreadsShareEachCodec() throws Exception {
    List<BlockCodec> codecs = TestCodecs.all();
    ExecutorService pool = Executors.newFixedThreadPool(12);
    try {
      List<Future<Long>> results = new ArrayList<>();
      for (int t = 0; t < 24; t++) {
        int seed = t;
        BlockCodec c = codecs.get(t % codecs.size());
        results.add(
            pool.submit(
                () -> {
                  long blocks = 0;
                  try (BlockCompressor comp = c.newCompressor();
                      BlockDecompressor dec = c.newDecompressor()) {
                    for (int i = 0; i < 40; i++) {
                      byte[] raw =
                          TestCodecs.data(
                              i % 2 == 0 ? "text" : "mixed",
                              1 + (seed * 7919 + i * 104729) % 200_000,
                              seed * 1000L + i);
                      byte[] z = new byte[c.maxCompressedLength(raw.length)];
                      int n = comp.compress(raw, 0, raw.length, z, 0, z.length);
                      byte[] back = new byte[raw.length];
                      dec.decompress(z, 0, n, back, 0, raw.length);
                      assertArrayEquals(raw, back, c.name());
                      blocks++;
                    }
                  }
                  return blocks;
                }));
      }
      for (Future<Long> f : results) {
        assertEquals(40L, f.get(5, TimeUnit.MINUTES));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
