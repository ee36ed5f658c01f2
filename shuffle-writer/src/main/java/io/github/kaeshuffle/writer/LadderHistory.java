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
import java.util.function.ToDoubleFunction;

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
  private final Figures encode;
  private final Figures stored;

  LadderHistory(List<CodecStep> steps) {
    this.encode = new Figures(steps, CodecStep::encodeNanosPerByte);
    this.stored = new Figures(steps, CodecStep::storedRatio);
  }

  /** Codec nanoseconds per raw byte, per step. */
  Figures encode() {
    return encode;
  }

  /** Stored bytes per raw byte, per step. */
  Figures stored() {
    return stored;
  }

  /** One figure of every step: its last measured value, and each step's over each other's. */
  static final class Figures {
    private final double[] reference;
    private final double[] last;
    private final double[][] ratio;

    private Figures(List<CodecStep> steps, ToDoubleFunction<CodecStep> of) {
      int n = steps.size();
      reference = new double[n];
      for (int s = 0; s < n; s++) {
        reference[s] = of.applyAsDouble(steps.get(s));
      }
      last = new double[n];
      Arrays.fill(last, Double.NaN);
      ratio = new double[n][n];
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          ratio[a][b] = reference[a] / reference[b];
        }
      }
    }

    /** Step a's figure over step b's. */
    synchronized double ratio(int a, int b) {
      return ratio[a][b];
    }

    /**
     * Step s's figure as last measured, else a measured step's times the ratio, else s's reference.
     */
    synchronized double of(int s) {
      if (!Double.isNaN(last[s])) {
        return last[s];
      }
      for (int m = 0; m < last.length; m++) {
        if (!Double.isNaN(last[m])) {
          return last[m] * ratio[s][m];
        }
      }
      return reference[s];
    }

    /** Takes one shuffle's figure of step s; ignored unless positive. */
    synchronized void measured(int s, double value) {
      if (value > 0) {
        last[s] = value;
      }
    }

    /**
     * Takes how steps a and b compared in one shuffle that measured both; ignored unless positive.
     */
    synchronized void compared(int a, int b, double valueA, double valueB) {
      if (valueA > 0 && valueB > 0) {
        ratio[a][b] = valueA / valueB;
        ratio[b][a] = valueB / valueA;
      }
    }
  }
}
