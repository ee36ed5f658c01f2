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

/**
 * The block writer's compressed frames, on disk as soon as they are made: one file per map task,
 * frames written in the order the partitions fill their blocks, and for each partition where its
 * frames lie. At commit each partition's frames are copied out in order, never recompressed, so a
 * task holds only the raw blocks being filled, whatever the size of its output. Spark's
 * bypass-merge writer also writes a map output twice (a file per partition, then concatenated); one
 * file keeps the writes together and one file open. The file is made with the first write, so a map
 * output that fills no block never touches it. It also holds raw bytes parked to bound the writer's
 * buffers (see {@link LargeBuffers}); once read back their space is a hole the next writes fill
 * before the file grows, so parked bytes take at most a block per partition of it, not all ever
 * parked. Not thread-safe: one task's thread.
 */
final class FrameFile implements AutoCloseable {
  private final SpillFiles files;

  private final int partitions;

  /** Per partition, where its frames lie, in order; made with the file, an entry with its first. */
  private Extents[] frames;

  /** Per partition, where its parked bytes lie, in order; like {@link #frames}. */
  private Extents[] parked;

  private final FileHoles holes = new FileHoles();

  /**
   * Frames on their way back from the file; made with the file (most small tasks never have one).
   */
  private ByteBuffer copy;

  private Path path;
  private FileChannel channel;

  /** Where the file ends: the next write past the holes goes there. */
  private long end;

  /** Bytes ever written: frames and parked bytes. */
  private long written;

  private long diskNanos;

  FrameFile(SpillFiles files, int partitions) {
    this.files = files;
    this.partitions = partitions;
  }

  /** Writes the frame in {@code frame}'s first {@code frameLength} bytes for a partition. */
  void append(int partition, ByteBuffer frame, int frameLength) throws IOException {
    openOnce();
    write(ByteBuffers.range(frame, 0, frameLength), of(frames, partition));
  }

  /**
   * Writes raw bytes parked by a partition, after any it parked before: the start of a block not
   * yet full (see {@link LargeBuffers}), read back whole by {@link #readParked}, never copied out.
   */
  void park(int partition, ByteBuffer bytes) throws IOException {
    openOnce();
    write(bytes, of(parked, partition));
  }

  /**
   * Writes {@code bytes}' remaining bytes into the holes first, then at the end, noted in where.
   */
  private void write(ByteBuffer bytes, Extents where) throws IOException {
    long t = System.nanoTime();
    while (bytes.hasRemaining()) {
      int n = bytes.remaining();
      long at = end;
      if (!holes.isEmpty()) {
        at = holes.firstOffset();
        n = (int) Math.min(n, holes.firstLength());
        holes.takeFirst(n);
      }
      ByteBuffer piece = ByteBuffers.range(bytes, bytes.position(), bytes.position() + n);
      while (piece.hasRemaining()) {
        channel.write(piece, at + piece.position() - bytes.position());
      }
      ByteBuffers.position(bytes, bytes.position() + n);
      where.add(at, n);
      end = Math.max(end, at + n);
      written += n;
    }
    diskNanos += System.nanoTime() - t;
  }

  /** The partition's extents in {@code table}, made on first use. */
  private static Extents of(Extents[] table, int partition) {
    if (table[partition] == null) {
      table[partition] = new Extents();
    }
    return table[partition];
  }

  /**
   * Reads back all the bytes a partition parked, in order, into {@code dst}; their space becomes a
   * hole for the next writes.
   */
  void readParked(int partition, ByteBuffer dst) throws IOException {
    Extents p = parked == null ? null : parked[partition];
    if (p == null) {
      return;
    }
    long t = System.nanoTime();
    for (int i = 0; i < p.count(); i++) {
      readFully(p.offset(i), (int) p.length(i), dst);
      holes.add(p.offset(i), p.length(i));
    }
    p.clear();
    diskNanos += System.nanoTime() - t;
  }

  /** Reads {@code count} bytes from {@code offset} into {@code dst}, advancing it. */
  private void readFully(long offset, int count, ByteBuffer dst) throws IOException {
    int start = dst.position();
    ByteBuffer into = ByteBuffers.range(dst, start, start + count);
    while (into.hasRemaining()) {
      if (channel.read(into, offset + into.position() - start) < 0) {
        throw new IOException(
            "The frame file " + path + " ended before the parked bytes at " + offset + ".");
      }
    }
    ByteBuffers.position(dst, start + count);
  }

  /** Makes the file, with the first write; timed as disk time, as the writes are. */
  private void openOnce() throws IOException {
    if (channel != null) {
      return;
    }
    long t = System.nanoTime();
    frames = new Extents[partitions];
    parked = new Extents[partitions];
    copy = ByteBuffer.allocate(64 * 1024);
    path = files.newSpillFile();
    channel =
        FileChannel.open(
            path,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
    diskNanos += System.nanoTime() - t;
  }

  /** Copies a partition's frames, in the order they were written, to {@code out}. */
  void copyTo(int partition, OutputStream out) throws IOException {
    Extents r = frames == null ? null : frames[partition];
    if (r == null) {
      return;
    }
    for (int i = 0; i < r.count(); i++) {
      copyRange(r.offset(i), r.offset(i) + r.length(i), out);
    }
    frames[partition] = null;
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

  /** Bytes ever written to the file: frames and parked bytes. */
  long bytes() {
    return written;
  }

  /** The file's length: frames, parked bytes not yet read back, and holes. */
  long length() {
    return end;
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
