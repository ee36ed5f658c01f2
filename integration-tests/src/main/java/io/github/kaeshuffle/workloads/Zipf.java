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
