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
package io.github.kaeshuffle.writer;

import java.util.Arrays;
import java.util.List;

/**
 * What this executor's shuffles measured of the ladder's steps: each step's latest figures (codec
 * nanoseconds and stored bytes per raw byte), and how two steps compared where one shuffle measured
 * both. A new shuffle starts from these figures instead of the references; a shuffle prices a step
 * it has not run from one it has by how the two compared here. Without this, each new shuffle of an
 * iterative job made the references' mistake again: it started on (or moved to) a step the
 * references flattered and left it once measured. The steps' reference figures ({@link CodecStep})
 * stand in until a step is measured. A shuffle's own measurements of a step always replace these.
 * Thread-safe.
 */
final class LadderHistory {
  private final List<CodecStep> steps;
  private final double[] encode;
  private final double[] stored;
  private final double[][] encodeRatio;
  private final double[][] storedRatio;

  LadderHistory(List<CodecStep> steps) {
    int n = steps.size();
    this.steps = steps;
    encode = new double[n];
    stored = new double[n];
    Arrays.fill(encode, Double.NaN);
    Arrays.fill(stored, Double.NaN);
    encodeRatio = new double[n][n];
    storedRatio = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        encodeRatio[a][b] = steps.get(a).encodeNanosPerByte() / steps.get(b).encodeNanosPerByte();
        storedRatio[a][b] = steps.get(a).storedRatio() / steps.get(b).storedRatio();
      }
    }
  }

  /** Step a's codec time per raw byte over step b's. */
  synchronized double encodeRatio(int a, int b) {
    return encodeRatio[a][b];
  }

  /** Step a's stored bytes per raw byte over step b's. */
  synchronized double storedRatio(int a, int b) {
    return storedRatio[a][b];
  }

  /** Step s's codec time per raw byte as this executor last measured it, or estimates it. */
  synchronized double encode(int s) {
    return figure(encode, encodeRatio, s, steps.get(s).encodeNanosPerByte());
  }

  /** Step s's stored bytes per raw byte as this executor last measured it, or estimates it. */
  synchronized double stored(int s) {
    return figure(stored, storedRatio, s, steps.get(s).storedRatio());
  }

  /** Takes a shuffle's measured figures of one step. */
  synchronized void measured(int s, double encodeNanos, double storedPerRaw) {
    if (encodeNanos > 0 && storedPerRaw > 0) {
      encode[s] = encodeNanos;
      stored[s] = storedPerRaw;
    }
  }

  /** Takes how steps a and b compared in one shuffle that measured both (per raw byte each). */
  synchronized void compared(
      int a, int b, double encodeA, double encodeB, double storedA, double storedB) {
    if (a == b || !(encodeA > 0 && encodeB > 0 && storedA > 0 && storedB > 0)) {
      return;
    }
    encodeRatio[a][b] = encodeA / encodeB;
    encodeRatio[b][a] = encodeB / encodeA;
    storedRatio[a][b] = storedA / storedB;
    storedRatio[b][a] = storedB / storedA;
  }

  /** The last measured figure, else a measured step's times the ratio, else the reference. */
  private static double figure(double[] last, double[][] ratio, int s, double reference) {
    if (!Double.isNaN(last[s])) {
      return last[s];
    }
    for (int m = 0; m < last.length; m++) {
      if (!Double.isNaN(last[m])) {
        return last[m] * ratio[s][m];
      }
    }
    return reference;
  }
}
