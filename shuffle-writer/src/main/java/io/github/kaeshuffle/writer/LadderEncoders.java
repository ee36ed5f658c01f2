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

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.BlockStats;
import io.github.kaeshuffle.pool.EncoderPool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's encoders for its map tasks, one pool per step of the codec ladder (a pinned codec
 * is a ladder of one step), with a {@link CodecPolicy} per shuffle that picks the step each task
 * borrows from. A task gives its encoder back with its disk time, and the policy learns from it;
 * the reduce tasks' waits for the network come in through the executor's {@link LinkCost}, which
 * the reader feeds whether or not this executor has map tasks; when a shuffle starts above the
 * first step or moves to another one, the executor log says so once with why. With more than one
 * step, a daemon thread reads the kernel's writeback pressure every {@link
 * WritebackPressure#REFRESH_NANOS} while tasks hold encoders: a task blocked for the disk cannot
 * look itself, and the pressure may be gone by the time it returns; once, the same thread measures
 * the disk's rate ({@link DiskProbe}), and where the machine's pages waiting for its disks would
 * take it long to write, stored bytes are priced by the disk's time for them before any task waits
 * ({@link DiskCost#owedNanos}), counted again when a task gives its encoder back and when a new
 * shuffle's first task borrows one. Thread-safe.
 */
public final class LadderEncoders implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LadderEncoders.class);

  private final List<BlockCodec> codecs;
  private final List<CodecStep> steps = new ArrayList<>();
  private final Function<BlockCodec, EncoderPool> poolOf;
  private final EncoderPool[] pools;
  private final DiskCost disk = new DiskCost();
  private final LinkCost link;
  private final LadderHistory history;
  private final Map<Integer, CodecPolicy> policies = new ConcurrentHashMap<>();
  private final WritebackPressure writeback;
  private final AtomicInteger lent = new AtomicInteger();
  private final ScheduledExecutorService sampler;
  private final DiskProbe probe;
  private final AtomicBoolean behindSaid = new AtomicBoolean();

  /**
   * @param codecs the ladder, cheapest first
   * @param poolOf makes a step's pool, when the first task borrows from it
   */
  public LadderEncoders(List<BlockCodec> codecs, Function<BlockCodec, EncoderPool> poolOf) {
    this(codecs, poolOf, new LinkCost());
  }

  /**
   * @param codecs the ladder, cheapest first
   * @param poolOf makes a step's pool, when the first task borrows from it
   * @param link the executor's reduce tasks' waits for the network
   */
  public LadderEncoders(
      List<BlockCodec> codecs, Function<BlockCodec, EncoderPool> poolOf, LinkCost link) {
    this(codecs, poolOf, link, null);
  }

  /**
   * @param codecs the ladder, cheapest first
   * @param poolOf makes a step's pool, when the first task borrows from it
   * @param link the executor's reduce tasks' waits for the network
   * @param probeFile a new file in one of the executor's local directories, for the disk's rate;
   *     null not to measure it
   */
  public LadderEncoders(
      List<BlockCodec> codecs,
      Function<BlockCodec, EncoderPool> poolOf,
      LinkCost link,
      Supplier<Path> probeFile) {
    this(
        codecs,
        poolOf,
        link,
        probeFile == null ? null : new DiskProbe(probeFile),
        WritebackPressure.system());
  }

  /** With the disk's probe (null: none) and the kernel's counts ({@code writeback}), for tests. */
  LadderEncoders(
      List<BlockCodec> codecs,
      Function<BlockCodec, EncoderPool> poolOf,
      LinkCost link,
      DiskProbe probe,
      WritebackPressure writeback) {
    if (codecs.isEmpty()) {
      throw new IllegalArgumentException("A codec ladder needs at least one codec.");
    }
    this.codecs = new ArrayList<>(codecs);
    this.poolOf = poolOf;
    this.link = link;
    this.pools = new EncoderPool[codecs.size()];
    for (BlockCodec c : codecs) {
      steps.add(CodecStep.of(c));
    }
    this.history = new LadderHistory(steps);
    this.writeback = writeback;
    this.sampler = codecs.size() > 1 ? sampleWriteback() : null;
    this.probe = sampler != null ? probe : null;
  }

  private ScheduledExecutorService sampleWriteback() {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "kae-writeback-pressure");
              t.setDaemon(true);
              return t;
            });
    long every = WritebackPressure.REFRESH_NANOS;
    s.scheduleWithFixedDelay(
        () -> {
          if (lent.get() > 0) {
            writeback.behind();
          }
        },
        every,
        every,
        TimeUnit.NANOSECONDS);
    return s;
  }

  /** One task's encoder, the step it came from, and the policy it reports to. */
  public static final class Lease {
    private final BlockEncoder encoder;
    private final int shuffleId;
    private final int step;
    private final CodecPolicy policy;
    private final BlockedTime blocked = new BlockedTime();

    Lease(BlockEncoder encoder, int shuffleId, int step, CodecPolicy policy) {
      this.encoder = encoder;
      this.shuffleId = shuffleId;
      this.step = step;
      this.policy = policy;
    }

    public BlockEncoder encoder() {
      return encoder;
    }

    /**
     * The raw bytes the encoder compressed with a codec above the ladder's first step: all of them
     * or none, as a task keeps the codec it started with ({@code write.strongerRawBytes}).
     */
    public long strongerRawBytes() {
      return step > 0 ? encoder.stats().rawBytes() : 0L;
    }

    /**
     * The partitions' stored lengths as the ladder's first step would have stored them, for Spark's
     * map status (the index keeps the real ones): Spark's adaptive execution coalesces reduce
     * partitions and picks joins by these sizes, so a shuffle that moved to a stronger codec keeps
     * the reduce tasks and plans its first step would have had. {@code lengths} itself on the first
     * step; an empty partition stays empty.
     */
    public long[] lengthsAsFirstStep(long[] lengths) {
      if (step == 0) {
        return lengths;
      }
      double scale = policy.firstStepScale(step);
      long[] scaled = new long[lengths.length];
      for (int i = 0; i < lengths.length; i++) {
        scaled[i] = (long) Math.ceil(lengths[i] * scale);
      }
      return scaled;
    }
  }

  /** An encoder of the step shuffle {@code shuffleId}'s policy chooses now. */
  public Lease borrow(int shuffleId) throws CodecException {
    CodecPolicy policy = policy(shuffleId);
    int step = policy.step();
    Lease lease = new Lease(pool(step).borrow(), shuffleId, step, policy);
    lent.incrementAndGet();
    if (probe != null) {
      probe.startOnce(sampler);
    }
    return lease;
  }

  /**
   * Takes the encoder back after its owner read its statistics, and tells the policy what the task
   * measured: the encoder's bytes and codec time, and the disk's cost to the task: {@code
   * diskNanos}, its time in its disk writes (not in committing its map output, which costs a task
   * the same whatever the codec stores), or, while the kernel holds writes back ({@link
   * WritebackPressure}), the time its thread was blocked in the kernel since it borrowed ({@link
   * BlockedTime}, the JVM's pauses in it) when that is more; and whether writes are held back or
   * the disk is behind.
   */
  public void giveBack(Lease lease, long diskNanos) {
    BlockStats s = lease.encoder.stats();
    boolean held = writeback.behind();
    long waited = held ? Math.max(diskNanos, lease.blocked.nanos()) : diskNanos;
    double owed = oweForBacklog();
    Optional<String> moved =
        lease.policy.record(
            lease.step, s.rawBytes(), s.storedBytes(), s.codecNanos(), waited, held || owed > 0);
    moved.ifPresent(m -> LOG.info("KAE Shuffle codec for shuffle {}: {}", lease.shuffleId, m));
    lent.decrementAndGet();
    pool(lease.step).giveBack(lease.encoder);
  }

  /**
   * What a stored byte costs the disk while the machine's pages waiting for it would take it long
   * to write at its measured rate ({@link DiskCost#owedNanos}, for this executor's tasks writing
   * now), from the kernel's counts as last read; set as the executor's {@link DiskCost#owe} and
   * returned. The first time it is not 0, said once in the executor log.
   */
  private double oweForBacklog() {
    double rate = probe == null ? 0 : probe.bytesPerSecond();
    long waiting = writeback.waitingBytes();
    double owed = DiskCost.owedNanos(rate, waiting, lent.get());
    if (owed > 0 && behindSaid.compareAndSet(false, true)) {
      LOG.info(
          "KAE Shuffle: the disk is {} s behind ({} MB waiting at {} MB/s); auto prices a stored"
              + " byte at {} ns, from 0 at {} s behind to the disk's time for it at {} s",
          String.format(Locale.ROOT, "%.0f", waiting / rate),
          waiting / 1_000_000,
          String.format(Locale.ROOT, "%.1f", rate / 1e6),
          String.format(Locale.ROOT, "%.2f", owed),
          (long) DiskCost.BEHIND_SECONDS,
          (long) DiskCost.FULL_SECONDS);
    }
    disk.owe(owed);
    return owed;
  }

  /** Forgets an unregistered shuffle's policy. */
  public void forget(int shuffleId) {
    policies.remove(shuffleId);
  }

  /**
   * The shuffle's policy; a new one starts on the disk's backlog as the kernel counts it now, not
   * as the last task of an earlier shuffle left it (the disk may have caught up since, or fallen
   * behind with other writes), and, when that is above the ladder's first step, says why, once.
   */
  private CodecPolicy policy(int shuffleId) {
    CodecPolicy known = policies.get(shuffleId);
    if (known != null) {
      return known;
    }
    if (sampler != null) {
      writeback.behind();
      oweForBacklog();
    }
    return policies.computeIfAbsent(
        shuffleId,
        id -> {
          CodecPolicy p = new CodecPolicy(steps, disk, link, history);
          if (p.step() > 0) {
            LOG.info("KAE Shuffle codec for shuffle {} starts at {}", id, p.describe());
          }
          return p;
        });
  }

  private synchronized EncoderPool pool(int step) {
    if (pools[step] == null) {
      pools[step] = poolOf.apply(codecs.get(step));
    }
    return pools[step];
  }

  /** Encoders created so far by every step's pool: the native compressors opened. */
  public synchronized long created() {
    long n = 0;
    for (EncoderPool p : pools) {
      n += p == null ? 0 : p.created();
    }
    return n;
  }

  /** Closes every step's idle encoders; those still lent are closed when they come back. */
  @Override
  public synchronized void close() {
    if (sampler != null) {
      sampler.shutdownNow();
    }
    for (EncoderPool p : pools) {
      if (p != null) {
        p.close();
      }
    }
  }
}
