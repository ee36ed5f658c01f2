package io.github.kaeshuffle.format;

import java.util.function.LongSupplier;

/**
 * The clock of one task for the shuffle doctor (docs/tuning.md): where the task's thread spends
 * its time along the shuffle chain.
 *
 * <p>Two kinds of measures. Exact ones are taken per block or per buffer (a fetch, a read of
 * decoded bytes, a codec call, a disk write): a handful of clock reads per 256 KiB. Per-record
 * work (producing a record upstream, serializing it, deserializing it) is timed on one record in
 * {@link #SAMPLE_EVERY} and scaled up, so measuring costs two clock reads per {@value
 * #SAMPLE_EVERY} records.
 *
 * <p>One per task attempt, shared by the task's readers (a task may read several shuffles) and
 * its writer; a reader's samples leave out the exact fetch and decode time nested in them. Task
 * thread only.
 */
public final class TaskLinks {
  /** One record in this many is timed. A power of two. */
  public static final int SAMPLE_EVERY = 32;

  /**
   * A sample longer than this and than {@link #OUTLIER_FACTOR} times the mean so far is left out:
   * it caught the thread descheduled (more runnable threads than cores) or in a GC pause, which
   * scaling by {@link #SAMPLE_EVERY} would blow up. That time stays in the task's other time.
   */
  static final long OUTLIER_NANOS = 1_000_000L;

  static final int OUTLIER_FACTOR = 50;

  /**
   * What a sample's own clock reads add to it, measured once per JVM (the median of back-to-back
   * reads) and taken off every sample: for records of a few hundred nanoseconds it is not small.
   */
  static final long CLOCK_NANOS = clockNanos();

  private static long clockNanos() {
    long[] d = new long[2001];
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < d.length; i++) {
        long t = System.nanoTime();
        d[i] = System.nanoTime() - t;
      }
    }
    java.util.Arrays.sort(d);
    return d[d.length / 2];
  }

  private long readNanos;

  /** Adds exact time the task's thread spent getting shuffle bytes (fetching, decoding). */
  public void addRead(long nanos) {
    readNanos += nanos;
  }

  /** Exact time spent getting shuffle bytes so far, by every reader of this task. */
  public long readNanos() {
    return readNanos;
  }

  /**
   * Whether the record with this 0-based number is one of the timed ones: the 32nd, the 64th, ...
   * Never the first, whose time carries one-time set-up (a serializer instance, the first fetch).
   */
  public static boolean sampled(long record) {
    return (record & (SAMPLE_EVERY - 1)) == SAMPLE_EVERY - 1;
  }

  /** A new sampled measure of one per-record operation, without the reads nested in it. */
  public Sample sample() {
    return new Sample(this::readNanos);
  }

  /**
   * A new sampled measure of one per-record operation, without the time {@code excluded} (a
   * running total of exactly measured nanoseconds, e.g. codec calls) grows by meanwhile.
   */
  public static Sample sample(LongSupplier excluded) {
    return new Sample(excluded);
  }

  /**
   * Time of one per-record operation, taken on sampled records, without the exactly measured
   * time nested in it; {@link #estimate} scales it to every record.
   */
  public static final class Sample {
    /** Samples held until there are enough to judge outliers by their median. */
    private static final int FIRST = 16;

    private final LongSupplier excluded;
    private long[] first = new long[FIRST];
    private long nanos;
    private long count;
    private long outliers;
    private long start;
    private long excludedAtStart;
    private boolean running;

    Sample(LongSupplier excluded) {
      this.excluded = excluded;
    }

    public void start() {
      running = true;
      excludedAtStart = excluded.getAsLong();
      start = System.nanoTime();
    }

    public void stop() {
      if (running) {
        long elapsed = System.nanoTime() - start - CLOCK_NANOS;
        elapsed = Math.max(0L, elapsed - (excluded.getAsLong() - excludedAtStart));
        running = false;
        if (first != null) {
          first[(int) count++] = elapsed;
          if (count == FIRST) {
            judgeFirst();
          }
        } else if (elapsed > OUTLIER_NANOS && elapsed > OUTLIER_FACTOR * (nanos / count)) {
          outliers++;
        } else {
          nanos += elapsed;
          count++;
        }
      }
    }

    /** Keeps the first samples that are not outliers against their median. */
    private void judgeFirst() {
      long[] held = java.util.Arrays.copyOf(first, (int) count);
      first = null;
      long[] sorted = held.clone();
      java.util.Arrays.sort(sorted);
      long median = sorted[sorted.length / 2];
      count = 0;
      for (long e : held) {
        if (e > OUTLIER_NANOS && e > OUTLIER_FACTOR * Math.max(1L, median)) {
          outliers++;
        } else {
          nanos += e;
          count++;
        }
      }
    }

    /** Samples left out as outliers. */
    public long outliers() {
      return outliers;
    }

    public boolean running() {
      return running;
    }

    /** Samples taken. */
    public long count() {
      return count;
    }

    /** Estimated time of the operation over {@code records} records (0 when nothing sampled). */
    public long estimate(long records) {
      if (first != null && count > 0) {
        judgeFirst();
      }
      return count == 0 ? 0L : (long) ((double) nanos / count * records);
    }
  }
}
