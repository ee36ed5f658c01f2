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
package io.github.kaeshuffle.workloads;

import java.util.Random;

/**
 * The BigDataBench-style text the workloads share: a vocabulary of pseudo-words (frequent words are
 * short, as in natural language) drawn by Zipf(1.0). Everything derives from seeds, so every run
 * and every executor produces the same data with no download.
 */
public final class TextCorpus {
  public static final int VOCABULARY = 50_000;
  private static final long VOCABULARY_SEED = 0x5EEDL;

  private static final class Holder {
    static final TextCorpus INSTANCE = new TextCorpus();
  }

  private final String[] words = new String[VOCABULARY];
  private final Zipf zipf = new Zipf(VOCABULARY, 1.0);

  private TextCorpus() {
    Random r = new Random(VOCABULARY_SEED);
    double logN = Math.log(VOCABULARY);
    for (int rank = 0; rank < VOCABULARY; rank++) {
      int len = 2 + (int) (Math.log(rank + 1) / logN * 8) + r.nextInt(3);
      char[] w = new char[len];
      for (int i = 0; i < len; i++) {
        w[i] = (char) ('a' + r.nextInt(26));
      }
      words[rank] = new String(w);
    }
  }

  public static TextCorpus get() {
    return Holder.INSTANCE;
  }

  public int sampleRank(Random r) {
    return zipf.sample(r);
  }

  public String word(int rank) {
    return words[rank];
  }

  public String sampleWord(Random r) {
    return words[zipf.sample(r)];
  }

  /** A line of {@code n} words separated by single spaces. */
  public String line(Random r, int n) {
    StringBuilder sb = new StringBuilder(n * 8);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(sampleWord(r));
    }
    return sb.toString();
  }

  /** A reproducible random source for one slice of one workload. */
  public static Random random(long seed, int slice) {
    return new Random(seed * 1_000_003L + slice);
  }
}
