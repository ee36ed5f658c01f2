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

import java.util.Arrays;
import java.util.Random;

/** Zipf(s) over ranks 0..n-1 by inverse CDF: P(rank k) proportional to 1 / (k + 1)^s. */
public final class Zipf {
  private final double[] cdf;

  public Zipf(int n, double s) {
    cdf = new double[n];
    double sum = 0;
    for (int k = 0; k < n; k++) {
      sum += 1.0 / Math.pow(k + 1, s);
      cdf[k] = sum;
    }
    for (int k = 0; k < n; k++) {
      cdf[k] /= sum;
    }
    cdf[n - 1] = 1.0;
  }

  public int sample(Random r) {
    int i = Arrays.binarySearch(cdf, r.nextDouble());
    return i >= 0 ? i : -i - 1;
  }

  public int size() {
    return cdf.length;
  }
}
