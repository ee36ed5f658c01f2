package io.github.kaeshuffle.format;

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
 * <p>One per task attempt, shared by the task's readers and its writer: a writer's sample of its
 * upstream (which, in a stage that reads a shuffle, runs the reader) leaves out the exact read
 * time nested in it. Task thread only.
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

  /** A new sampled measure of one per-record operation. */
  public Sample sample() {
    return new Sample();
  }

  /**
   * Time of one per-record operation, taken on sampled records, without the exact read time
   * nested in it; {@link #estimate} scales it to every record.
   */
  public final class Sample {
    private long nanos;
    private long count;
    private long outliers;
    private long start;
    private long readAtStart;
    private boolean running;

    public void start() {
      running = true;
      readAtStart = readNanos;
      start = System.nanoTime();
    }

    public void stop() {
      if (running) {
        long elapsed = Math.max(0L, System.nanoTime() - start - (readNanos - readAtStart));
        running = false;
        if (elapsed > OUTLIER_NANOS && count >= 16 && elapsed > OUTLIER_FACTOR * (nanos / count)) {
          outliers++;
          return;
        }
        nanos += elapsed;
        count++;
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
      return count == 0 ? 0L : (long) ((double) nanos / count * records);
    }
  }
}
