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

import io.github.kaeshuffle.diagnostics.TimedOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The block writer's spill files. Each spill holds the compressed frames of every partition at the
 * time, partition by partition, and remembers where each partition's run starts; at the end each
 * partition's frames are copied back from every spill in spill order, never recompressed. The time
 * in the files (writing, reading back) is the buffer's disk time. Not thread-safe.
 */
final class FrameSpills implements AutoCloseable {
  /** One spill file: partition p's frames are bytes [offsets[p], offsets[p + 1]). */
  private static final class Spill {
    final Path file;
    final long[] offsets;

    Spill(Path file, long[] offsets) {
      this.file = file;
      this.offsets = offsets;
    }
  }

  /** Writes one partition's frames into a spill; returns the bytes written. */
  interface PartitionFrames {
    long writeTo(int partition, OutputStream out) throws IOException;
  }

  private final SpillFiles files;
  private final int partitions;
  private final List<Spill> spills = new ArrayList<>();
  private final List<FileChannel> reading = new ArrayList<>();
  private final ByteBuffer copy = ByteBuffer.allocate(64 * 1024);
  private long bytes;
  private long diskNanos;

  FrameSpills(SpillFiles files, int partitions) {
    this.files = files;
    this.partitions = partitions;
  }

  /** Writes a new spill file, partition by partition; returns its length. */
  long write(PartitionFrames frames) throws IOException {
    Path file = files.newSpillFile();
    long[] offsets = new long[partitions + 1];
    long position = 0;
    TimedOutputStream disk = new TimedOutputStream(Files.newOutputStream(file));
    try (OutputStream out = new BufferedOutputStream(disk, 64 * 1024)) {
      for (int i = 0; i < partitions; i++) {
        offsets[i] = position;
        position += frames.writeTo(i, out);
      }
      offsets[partitions] = position;
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    } finally {
      diskNanos += disk.nanos();
    }
    spills.add(new Spill(file, offsets));
    bytes += position;
    return position;
  }

  /** Copies a partition's frames from every spill, in spill order, to {@code out}. */
  void copyTo(int partition, OutputStream out) throws IOException {
    for (int s = 0; s < spills.size(); s++) {
      if (reading.size() <= s) {
        reading.add(FileChannel.open(spills.get(s).file, StandardOpenOption.READ));
      }
      long[] offsets = spills.get(s).offsets;
      copyRange(reading.get(s), offsets[partition], offsets[partition + 1], out);
    }
  }

  private void copyRange(FileChannel in, long from, long to, OutputStream out) throws IOException {
    long position = from;
    while (position < to) {
      copy.clear();
      copy.limit((int) Math.min(copy.capacity(), to - position));
      long t = System.nanoTime();
      int n = in.read(copy, position);
      diskNanos += System.nanoTime() - t;
      if (n < 0) {
        throw new IOException("Spill file ended early at byte " + position + " of " + to);
      }
      out.write(copy.array(), 0, n);
      position += n;
    }
  }

  /** Closes the files opened for copying back (the files stay until {@link #close}). */
  void doneReading() throws IOException {
    IOException first = null;
    for (FileChannel c : reading) {
      try {
        c.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    reading.clear();
    if (first != null) {
      throw first;
    }
  }

  /** Bytes written to spill files so far. */
  long bytes() {
    return bytes;
  }

  int count() {
    return spills.size();
  }

  /** Time in the spill files: writing them and reading them back. */
  long diskNanos() {
    return diskNanos;
  }

  /** Deletes every spill file; the first failure is thrown after all were tried. Idempotent. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    try {
      doneReading();
    } catch (IOException e) {
      first = e;
    }
    for (Spill s : spills) {
      try {
        Files.deleteIfExists(s.file);
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    spills.clear();
    if (first != null) {
      throw first;
    }
  }
}
