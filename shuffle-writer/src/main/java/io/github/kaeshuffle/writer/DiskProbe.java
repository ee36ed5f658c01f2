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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rate the disk under the shuffle's files takes writes at, measured once per executor by
 * writing {@link #BYTES} to a file there through to the device ({@code fdatasync}) and deleting it.
 * The page cache takes a map task's writes at the speed of a copy until its dirty pages reach the
 * kernel's limits, so the tasks' own waits say nothing of the disk until then; this says what every
 * stored byte will cost once it has to reach the disk. 0 until measured, and where it cannot be
 * (the executor log says why, once). Thread-safe.
 */
final class DiskProbe {
  private static final Logger LOG = LoggerFactory.getLogger(DiskProbe.class);

  /** What the probe writes: enough to pass a throttle's first burst, a second at 4 MB/s. */
  static final int BYTES = 4 << 20;

  private final Supplier<Path> file;
  private final AtomicBoolean started = new AtomicBoolean();
  private volatile double bytesPerSecond;

  /**
   * @param file a new file in one of the executor's local directories, asked for once
   */
  DiskProbe(Supplier<Path> file) {
    this.file = file;
  }

  /** A probe that measured {@code bytesPerSecond} already, for tests of what follows from it. */
  static DiskProbe measured(double bytesPerSecond) {
    DiskProbe p =
        new DiskProbe(
            () -> {
              throw new IllegalStateException("measured already");
            });
    p.started.set(true);
    p.bytesPerSecond = bytesPerSecond;
    return p;
  }

  /** Measures on {@code on}, the first time only; never, where {@code on} has shut down. */
  void startOnce(Executor on) {
    if (started.compareAndSet(false, true)) {
      try {
        on.execute(this::measure);
      } catch (RejectedExecutionException e) {
        // the executor's encoders are closing: no more map tasks to price
      }
    }
  }

  /** Bytes per second the disk took, 0 before it was measured or where it could not be. */
  double bytesPerSecond() {
    return bytesPerSecond;
  }

  /** Writes the probe's bytes through to the disk; the rate, 0 where it failed. */
  double measure() {
    Path p = null;
    try {
      p = file.get();
      ByteBuffer chunk = randomChunk();
      long start = System.nanoTime();
      try (FileChannel ch =
          FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        for (int written = 0; written < BYTES; written += chunk.capacity()) {
          chunk.rewind();
          while (chunk.hasRemaining()) {
            ch.write(chunk);
          }
        }
        ch.force(false);
      }
      long nanos = Math.max(1, System.nanoTime() - start);
      bytesPerSecond = BYTES * 1e9 / nanos;
      LOG.info(
          "KAE Shuffle measured the disk under the shuffle's files at {} MB/s ({} bytes written"
              + " through)",
          String.format(Locale.ROOT, "%.1f", bytesPerSecond / 1e6),
          BYTES);
    } catch (IOException | RuntimeException e) {
      LOG.warn("KAE Shuffle could not measure the disk's rate; auto prices it by its waits", e);
    } finally {
      delete(p);
    }
    return bytesPerSecond;
  }

  /** Bytes no file system can compress or share, so the device writes them all. */
  private static ByteBuffer randomChunk() {
    ByteBuffer b = ByteBuffer.allocate(1 << 20);
    SplittableRandom r = new SplittableRandom(System.nanoTime());
    while (b.hasRemaining()) {
      b.putLong(r.nextLong());
    }
    b.flip();
    return b;
  }

  private static void delete(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // a local directory, removed with the executor
      }
    }
  }
}
