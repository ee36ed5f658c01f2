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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Which step of the codec ladder the next map task of one shuffle on this executor uses. The
 * stage's map tasks run at the pace of the codec and the disk on their own thread, so each step is
 * priced per raw byte as its codec time (with its share of decompression) plus its stored bytes
 * times what a stored byte costs on the disk ({@link DiskCost}); the cheapest step wins once it is
 * {@link #MARGIN} cheaper than the current one. A step that has not run yet is priced by its
 * reference figures relative to a step that has ({@link CodecStep}); choosing it measures it. While
 * the kernel holds writes back the shuffle only moves to stronger steps: the page cache taking a
 * few tasks' writes at once makes the disk look cheap for a moment, while every stored byte still
 * has to reach it. For the same reason a move to a weaker step, which stores more bytes, prices the
 * disk over a longer run of tasks ({@link DiskCost#lastingNanosPerByte}): moves to stronger steps
 * follow the recent tasks, moves back wait until the disk has stayed cheap.
 *
 * <p>Deterministic: the same steps and the same sequence of measurements give the same choices.
 * Thread-safe: tasks of the shuffle record concurrently.
 */
public final class CodecPolicy {
  /** How much cheaper another step must be estimated to be before the shuffle moves to it. */
  static final double MARGIN = 0.10;

  /** Raw bytes a step must have written recently before its own figures are trusted. */
  static final long LEAST_BYTES = 1L << 20;

  private final List<CodecStep> steps;
  private final DiskCost disk;

  /** Per step: codec nanoseconds per raw byte. */
  private final DecayedRate[] encode;

  /** Per step: stored bytes per raw byte (as a rate, bytes for nanoseconds). */
  private final DecayedRate[] stored;

  private int current;
  private String why;

  /** A policy starting at the step the disk's known cost and the references favour (else 0). */
  public CodecPolicy(List<CodecStep> steps, DiskCost disk) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("A codec ladder needs at least one step.");
    }
    this.steps = new ArrayList<>(steps);
    this.disk = disk;
    this.encode = new DecayedRate[steps.size()];
    this.stored = new DecayedRate[steps.size()];
    for (int i = 0; i < encode.length; i++) {
      encode[i] = new DecayedRate();
      stored[i] = new DecayedRate();
    }
    double recent = disk.nanosPerByte();
    this.current = disk.covers(LEAST_BYTES) ? clearlyCheaper(cheapest(recent), recent) : 0;
    this.why =
        current == 0
            ? "the ladder's first step"
            : "the disk's cost on this executor (" + figures(recent) + ")";
  }

  /** The step the next map task uses. */
  public synchronized int step() {
    return current;
  }

  /** That step's name and why it is the one, for logs and the doctor. */
  public synchronized String describe() {
    return steps.get(current).name() + ": " + why;
  }

  /**
   * Adds a map task's measurements, taken with {@code step}: its raw and stored bytes, codec time
   * and disk time; {@code held}: whether the kernel holds writes back ({@link WritebackPressure}).
   * Returns the new choice and its reason when this moved the shuffle to another step.
   */
  public synchronized Optional<String> record(
      int step, long rawBytes, long storedBytes, long codecNanos, long diskNanos, boolean held) {
    if (rawBytes <= 0) {
      return Optional.empty();
    }
    encode[step].add(codecNanos, rawBytes);
    stored[step].add(storedBytes, rawBytes);
    disk.add(diskNanos, storedBytes);
    if (!encode[current].covers(LEAST_BYTES)) {
      return Optional.empty();
    }
    double priced = disk.nanosPerByte();
    int best = clearlyCheaper(cheapest(priced), priced);
    if (best < current) {
      // Weaker steps only on the lasting cost, never to a stronger one on it.
      priced = disk.lastingNanosPerByte();
      best = held ? current : Math.min(current, clearlyCheaper(cheapest(priced), priced));
    }
    if (best == current) {
      return Optional.empty();
    }
    String from = steps.get(current).name();
    why =
        "estimated "
            + perByte(cost(best, priced))
            + " against "
            + perByte(cost(current, priced))
            + " for "
            + from
            + " ("
            + figures(priced)
            + ")";
    current = best;
    return Optional.of(from + " -> " + describe());
  }

  /** {@code best} when it is {@link #MARGIN} cheaper than the current step, else the current. */
  private int clearlyCheaper(int best, double diskNanos) {
    return cost(best, diskNanos) < (1 - MARGIN) * cost(current, diskNanos) ? best : current;
  }

  private int cheapest(double diskNanos) {
    int best = current;
    for (int s = 0; s < steps.size(); s++) {
      if (cost(s, diskNanos) < cost(best, diskNanos)) {
        best = s;
      }
    }
    return best;
  }

  /** Nanoseconds per raw byte that step s costs the stage with the disk at diskNanos per byte. */
  private double cost(int s, double diskNanos) {
    CodecStep step = steps.get(s);
    return encodeNanos(s) * (1 + step.decodeShare()) + storedRatio(s) * diskNanos;
  }

  private double encodeNanos(int s) {
    return estimate(encode, s, CodecStep::encodeNanosPerByte);
  }

  private double storedRatio(int s) {
    return estimate(stored, s, CodecStep::storedRatio);
  }

  /**
   * Step s's own figure from {@code rates} once it has run, else its reference scaled by a measured
   * step's figure over that step's reference (the reference alone before any step has run).
   */
  private double estimate(DecayedRate[] rates, int s, ToDoubleFunction<CodecStep> reference) {
    if (rates[s].covers(LEAST_BYTES)) {
      return rates[s].perByte();
    }
    int m = measured();
    double own = reference.applyAsDouble(steps.get(s));
    return m < 0 ? own : rates[m].perByte() * own / reference.applyAsDouble(steps.get(m));
  }

  /** The step references are scaled from: the current one when measured, else the first that is. */
  private int measured() {
    if (encode[current].covers(LEAST_BYTES)) {
      return current;
    }
    for (int s = 0; s < encode.length; s++) {
      if (encode[s].covers(LEAST_BYTES)) {
        return s;
      }
    }
    return -1;
  }

  private String figures(double diskNanos) {
    StringBuilder b = new StringBuilder("disk " + perByte(diskNanos) + " per stored byte");
    for (int s = 0; s < steps.size(); s++) {
      b.append("; ")
          .append(steps.get(s).name())
          .append(encode[s].covers(LEAST_BYTES) ? " measured " : " estimated ")
          .append(perByte(encodeNanos(s)))
          .append(String.format(Locale.ROOT, " stores %.2f", storedRatio(s)));
    }
    return b.toString();
  }

  private static String perByte(double nanos) {
    return String.format(Locale.ROOT, "%.2f ns/B", nanos);
  }
}
