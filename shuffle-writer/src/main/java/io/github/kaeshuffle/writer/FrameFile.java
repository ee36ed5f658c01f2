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
 * The block writer's compressed frames as they are made: one file per map task, its start kept in
 * memory ({@link FramePages}) while the writer's bound and budget allow, frames written in the
 * order the partitions fill their blocks, and for each partition where its frames lie. At commit
 * each partition's frames are copied out in order, never recompressed, so a task holds in memory at
 * most the raw blocks being filled and the bounded pages, whatever the size of its output; a spill
 * moves the pages to the file. One file keeps the writes that overflow together and one file open;
 * it is made with the first byte past the pages, so a map output that fits in them never touches
 * the disk before its data file. It also holds raw bytes parked to bound the writer's buffers (see
 * {@link LargeBuffers}); once read back their space is a hole the next writes fill before the file
 * grows, so parked bytes take at most a block per partition of it, not all ever parked. Not
 * thread-safe: one task's thread.
 */
final class FrameFile implements AutoCloseable {
  private final SpillFiles files;

  private final int partitions;

  /** The file's start, in memory. */
  private final FramePages pages;

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

  FrameFile(SpillFiles files, int partitions, FramePages pages) {
    this.files = files;
    this.partitions = partitions;
    this.pages = pages;
  }

  /** Writes the frame in {@code frame}'s first {@code frameLength} bytes for a partition. */
  void append(int partition, ByteBuffer frame, int frameLength) throws IOException {
    tablesOnce();
    write(ByteBuffers.range(frame, 0, frameLength), of(frames, partition));
  }

  /**
   * Writes raw bytes parked by a partition, after any it parked before: the start of a block not
   * yet full (see {@link LargeBuffers}), read back whole by {@link #readParked}, never copied out.
   */
  void park(int partition, ByteBuffer bytes) throws IOException {
    tablesOnce();
    write(bytes, of(parked, partition));
  }

  /**
   * Writes {@code bytes}' remaining bytes into the holes first, then at the end, noted in where.
   */
  private void write(ByteBuffer bytes, Extents where) throws IOException {
    while (bytes.hasRemaining()) {
      int n = bytes.remaining();
      long at = end;
      if (!holes.isEmpty()) {
        at = holes.firstOffset();
        n = (int) Math.min(n, holes.firstLength());
        holes.takeFirst(n);
      }
      ByteBuffer piece = ByteBuffers.range(bytes, bytes.position(), bytes.position() + n);
      pages.write(at, piece);
      if (piece.hasRemaining()) {
        long t = System.nanoTime();
        FileChannel file = channel();
        while (piece.hasRemaining()) {
          file.write(piece, at + piece.position() - bytes.position());
        }
        diskNanos += System.nanoTime() - t;
      }
      ByteBuffers.position(bytes, bytes.position() + n);
      where.add(at, n);
      end = Math.max(end, at + n);
      written += n;
    }
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
    for (int i = 0; i < p.count(); i++) {
      readFully(p.offset(i), (int) p.length(i), dst);
      holes.add(p.offset(i), p.length(i));
    }
    p.clear();
  }

  /** Bytes of the {@code count} from {@code offset} that lie in memory, the first ones. */
  private int inMemory(long offset, long count) {
    return (int) Math.max(0, Math.min(count, pages.end() - offset));
  }

  /** Reads {@code count} bytes from {@code offset} into {@code dst}, advancing it. */
  private void readFully(long offset, int count, ByteBuffer dst) throws IOException {
    int start = dst.position();
    ByteBuffer into = ByteBuffers.range(dst, start, start + count);
    pages.read(offset, inMemory(offset, count), into);
    if (into.hasRemaining()) {
      long t = System.nanoTime();
      while (into.hasRemaining()) {
        if (channel.read(into, offset + into.position() - start) < 0) {
          throw new IOException(
              "The frame file " + path + " ended before the parked bytes at " + offset + ".");
        }
      }
      diskNanos += System.nanoTime() - t;
    }
    ByteBuffers.position(dst, start + count);
  }

  /** Makes the tables of where frames and parked bytes lie, with the first write. */
  private void tablesOnce() {
    if (frames == null) {
      frames = new Extents[partitions];
      parked = new Extents[partitions];
      copy = ByteBuffer.allocate(64 * 1024);
    }
  }

  /** The file, made with the first byte past the pages (timed by the caller, as a write). */
  private FileChannel channel() throws IOException {
    if (channel != null) {
      return channel;
    }
    path = files.newSpillFile();
    channel =
        FileChannel.open(
            path,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
    return channel;
  }

  /**
   * Moves the frames and parked bytes in memory to the file and frees their memory, for good: a
   * spill. Returns the bytes of memory freed (given back already).
   */
  long moveToDisk() throws IOException {
    if (pages.end() == 0) {
      pages.stop();
      return 0;
    }
    long t = System.nanoTime();
    long freed = pages.moveTo(channel(), end);
    diskNanos += System.nanoTime() - t;
    return freed;
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
    int m = inMemory(from, to - from);
    pages.copyTo(from, m, out, copy);
    long position = from + m;
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

  /** Time in the file, writing frames and reading them back (not the pages' copies). */
  long diskNanos() {
    return diskNanos;
  }

  /** Frees the pages, closes and deletes the file; idempotent. */
  @Override
  public void close() throws IOException {
    pages.free();
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
