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

/**
 * Which step of the codec ladder the next map task of one shuffle on this executor uses. The
 * stage's map tasks run at the pace of the codec and the disk on their own thread, so each step is
 * priced per raw byte as its codec time (with its share of decompression) plus its stored bytes
 * times what a stored byte costs: on the disk ({@link DiskCost}) and, across hosts, in the reduce
 * tasks' waits for the network ({@link LinkCost}); the cheapest step wins once it is {@link
 * #MARGIN} cheaper than the current one. A step that has not run yet in this shuffle is priced from
 * a step that has, by how the two compared on this executor, or, before any has, by the executor's
 * earlier shuffles ({@link LadderHistory}: the reference figures of {@link CodecStep} until
 * measured); choosing it measures it. While the kernel holds writes back the shuffle only moves to
 * stronger steps: the page cache taking a few tasks' writes at once makes the disk look cheap for a
 * moment, while every stored byte still has to reach it. For the same reason a move to a weaker
 * step, which stores more bytes, prices the disk over a longer run of tasks ({@link
 * DiskCost#lastingNanosPerByte}): moves to stronger steps follow the recent tasks, moves back wait
 * until the disk has stayed cheap.
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
  private final LinkCost link;
  private final LadderHistory history;

  /** Per step: codec nanoseconds per raw byte. */
  private final DecayedRate[] encode;

  /** Per step: stored bytes per raw byte (as a rate, bytes for nanoseconds). */
  private final DecayedRate[] stored;

  private int current;
  private String why;

  /** A policy of its own on a single host: no link, the steps' references. */
  public CodecPolicy(List<CodecStep> steps, DiskCost disk) {
    this(steps, disk, new LinkCost());
  }

  /** A policy of its own: no other shuffle's measurements, the steps' references. */
  public CodecPolicy(List<CodecStep> steps, DiskCost disk, LinkCost link) {
    this(steps, disk, link, new LadderHistory(steps));
  }

  /**
   * A policy starting at the step the known cost of a stored byte and the steps' figures so far
   * favour (else 0); {@code disk}, {@code link} and {@code history} are the executor's, shared with
   * its other shuffles.
   */
  CodecPolicy(List<CodecStep> steps, DiskCost disk, LinkCost link, LadderHistory history) {
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("A codec ladder needs at least one step.");
    }
    this.steps = new ArrayList<>(steps);
    this.disk = disk;
    this.link = link;
    this.history = history;
    this.encode = new DecayedRate[steps.size()];
    this.stored = new DecayedRate[steps.size()];
    for (int i = 0; i < encode.length; i++) {
      encode[i] = new DecayedRate();
      stored[i] = new DecayedRate();
    }
    boolean known = disk.covers(LEAST_BYTES) || link.covers(LEAST_BYTES);
    double linkPrice = link.nanosPerByte();
    double diskPrice = disk.nanosPerByte();
    double priced = diskPrice + linkPrice;
    this.current = known ? clearlyCheaper(cheapest(priced), priced) : 0;
    this.why =
        current == 0
            ? "the ladder's first step"
            : "a stored byte's cost on this executor (" + figures(diskPrice, linkPrice) + ")";
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
    teach(step);
    if (!encode[current].covers(LEAST_BYTES)) {
      return Optional.empty();
    }
    double linkPrice = link.nanosPerByte();
    double diskPrice = disk.nanosPerByte();
    double priced = diskPrice + linkPrice;
    int best = clearlyCheaper(cheapest(priced), priced);
    if (best < current) {
      // Weaker steps only on the lasting cost, never to a stronger one on it.
      diskPrice = disk.lastingNanosPerByte();
      priced = diskPrice + linkPrice;
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
            + figures(diskPrice, linkPrice)
            + ")";
    current = best;
    return Optional.of(from + " -> " + describe());
  }

  /**
   * How many times the bytes step {@code s} stores the ladder's first step would store, by the
   * figures the choices are made on: 1 for the first step, and never below 1 nor above what the raw
   * bytes would take.
   */
  public synchronized double firstStepScale(int s) {
    if (s == 0) {
      return 1.0;
    }
    double ratio = storedRatio(s);
    return Math.max(1.0, Math.min(storedRatio(0) / ratio, 1.0 / ratio));
  }

  /** Tells the executor's history {@code step}'s figures and how it compared with the others. */
  private void teach(int step) {
    teach(step, encode, history.encode());
    teach(step, stored, history.stored());
  }

  private void teach(int step, DecayedRate[] rates, LadderHistory.Figures figures) {
    if (!rates[step].covers(LEAST_BYTES)) {
      return;
    }
    figures.measured(step, rates[step].perByte());
    for (int o = 0; o < steps.size(); o++) {
      if (o != step && rates[o].covers(LEAST_BYTES)) {
        figures.compared(step, o, rates[step].perByte(), rates[o].perByte());
      }
    }
  }

  /** {@code best} when it is {@link #MARGIN} cheaper than the current step, else the current. */
  private int clearlyCheaper(int best, double storedNanos) {
    return cost(best, storedNanos) < (1 - MARGIN) * cost(current, storedNanos) ? best : current;
  }

  private int cheapest(double storedNanos) {
    int best = current;
    for (int s = 0; s < steps.size(); s++) {
      if (cost(s, storedNanos) < cost(best, storedNanos)) {
        best = s;
      }
    }
    return best;
  }

  /** Nanoseconds per raw byte that step s costs with a stored byte at storedNanos. */
  private double cost(int s, double storedNanos) {
    CodecStep step = steps.get(s);
    return encodeNanos(s) * (1 + step.decodeShare()) + storedRatio(s) * storedNanos;
  }

  private double encodeNanos(int s) {
    return estimate(encode, s, history.encode());
  }

  private double storedRatio(int s) {
    return estimate(stored, s, history.stored());
  }

  /**
   * Step s's own figure from {@code rates} once it has run, else a measured step's figure times how
   * s compared with it on this executor, else, before any step has run, the executor's figure.
   */
  private double estimate(DecayedRate[] rates, int s, LadderHistory.Figures figures) {
    if (rates[s].covers(LEAST_BYTES)) {
      return rates[s].perByte();
    }
    int m = measured();
    return m < 0 ? figures.of(s) : rates[m].perByte() * figures.ratio(s, m);
  }

  /** The step unmeasured steps are priced from: the current one when measured, else the first. */
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

  /**
   * The figures a choice was made on: a stored byte's cost on the disk and the link, each step's.
   */
  private String figures(double diskNanos, double linkNanos) {
    StringBuilder b = new StringBuilder("disk " + perByte(diskNanos) + " per stored byte");
    if (linkNanos > 0) {
      b.append(", link ").append(perByte(linkNanos));
    }
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
