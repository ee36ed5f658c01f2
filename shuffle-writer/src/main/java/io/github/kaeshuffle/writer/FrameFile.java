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

import io.github.kaeshuffle.codec.ByteBuffers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The block writer's compressed frames, on disk as soon as they are made: one file per map task,
 * frames appended in the order the partitions fill their blocks, and for each partition where its
 * frames lie. At commit each partition's frames are copied out in order, never recompressed, so a
 * task holds only the raw blocks being filled, whatever the size of its output. Spark's
 * bypass-merge writer also writes a map output twice (a file per partition, then concatenated); one
 * file keeps the writes sequential and one file open. The file is made with the first frame, so a
 * map output that fills no block never touches it. Not thread-safe: one task's thread.
 */
final class FrameFile implements AutoCloseable {
  private static final long[] NONE = new long[0];

  private final SpillFiles files;

  private final int partitions;

  /**
   * Per partition, its runs of frames as (offset, length) pairs, in the order written; a frame that
   * starts where the partition's last run ends extends it. Made with the file (null until then).
   */
  private long[][] runs;

  private int[] runCount;

  /**
   * Frames on their way back from the file; made with the file (most small tasks never have one).
   */
  private ByteBuffer copy;

  private Path path;
  private FileChannel channel;
  private long length;
  private long diskNanos;

  FrameFile(SpillFiles files, int partitions) {
    this.files = files;
    this.partitions = partitions;
  }

  /** Appends the frame in {@code frame}'s first {@code frameLength} bytes to a partition. */
  void append(int partition, ByteBuffer frame, int frameLength) throws IOException {
    addRun(partition, write(ByteBuffers.range(frame, 0, frameLength)), frameLength);
  }

  /**
   * Appends raw bytes parked by a partition (the start of a block not yet full, see {@link
   * LargeBuffers}); returns where they lie, for {@link #readParked}. They are not a frame: never
   * copied out.
   */
  long park(ByteBuffer bytes) throws IOException {
    return write(bytes);
  }

  /** Appends {@code bytes}' remaining bytes to the file, made if need be; returns where. */
  private long write(ByteBuffer bytes) throws IOException {
    long t = System.nanoTime();
    if (channel == null) {
      open();
    }
    long at = length;
    int start = bytes.position();
    while (bytes.hasRemaining()) {
      channel.write(bytes, at + bytes.position() - start);
    }
    length += bytes.position() - start;
    diskNanos += System.nanoTime() - t;
    return at;
  }

  /** Reads {@code count} parked bytes from {@code offset} into {@code dst}. */
  void readParked(long offset, int count, ByteBuffer dst) throws IOException {
    long t = System.nanoTime();
    int start = dst.position();
    ByteBuffer into = ByteBuffers.range(dst, start, start + count);
    while (into.hasRemaining()) {
      if (channel.read(into, offset + into.position() - start) < 0) {
        throw new IOException(
            "The frame file " + path + " ended before the parked bytes at " + offset + ".");
      }
    }
    ByteBuffers.position(dst, start + count);
    diskNanos += System.nanoTime() - t;
  }

  private void open() throws IOException {
    runs = new long[partitions][];
    runCount = new int[partitions];
    Arrays.fill(runs, NONE);
    copy = ByteBuffer.allocate(64 * 1024);
    path = files.newSpillFile();
    channel =
        FileChannel.open(
            path,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
  }

  private void addRun(int partition, long offset, int frameLength) {
    long[] r = runs[partition];
    int n = runCount[partition];
    if (n > 0 && r[2 * n - 2] + r[2 * n - 1] == offset) {
      r[2 * n - 1] += frameLength;
      return;
    }
    if (2 * n == r.length) {
      r = Arrays.copyOf(r, Math.max(4, 2 * r.length));
      runs[partition] = r;
    }
    r[2 * n] = offset;
    r[2 * n + 1] = frameLength;
    runCount[partition] = n + 1;
  }

  /** Copies a partition's frames, in the order they were appended, to {@code out}. */
  void copyTo(int partition, OutputStream out) throws IOException {
    if (runs == null) {
      return;
    }
    long[] r = runs[partition];
    for (int i = 0; i < runCount[partition]; i++) {
      copyRange(r[2 * i], r[2 * i] + r[2 * i + 1], out);
    }
    runs[partition] = NONE;
    runCount[partition] = 0;
  }

  private void copyRange(long from, long to, OutputStream out) throws IOException {
    long position = from;
    while (position < to) {
      copy.clear();
      copy.limit((int) Math.min(copy.capacity(), to - position));
      long t = System.nanoTime();
      int n = channel.read(copy, position);
      diskNanos += System.nanoTime() - t;
      if (n < 0) {
        throw new IOException(
            "The frame file " + path + " ended at byte " + position + ", before " + to + ".");
      }
      out.write(copy.array(), 0, n);
      position += n;
    }
  }

  /** Bytes written to the file: frames and parked bytes. */
  long bytes() {
    return length;
  }

  /** Time in the file: writing frames and reading them back. */
  long diskNanos() {
    return diskNanos;
  }

  /** Closes and deletes the file; idempotent. */
  @Override
  public void close() throws IOException {
    try {
      if (channel != null) {
        channel.close();
      }
    } finally {
      channel = null;
      if (path != null) {
        Files.deleteIfExists(path);
        path = null;
      }
    }
  }
}
