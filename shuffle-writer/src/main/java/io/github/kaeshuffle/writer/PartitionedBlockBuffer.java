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
import io.github.kaeshuffle.codec.DirectMemory;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.BlockFormat;
import io.github.kaeshuffle.format.SegmentIndexBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The map side's block buffers: serialized records are appended to their partition's raw block
 * buffer, and each time a buffer holds exactly {@code blockSize} bytes it is compressed with one
 * codec call into a frame that goes straight to the task's {@link FrameFile}. At the end each
 * partition becomes one segment: its frames (copied from the file, never recompressed), its last
 * partial block, its index.
 *
 * <p>Memory comes from a {@link MemoryBudget} and is only ever the raw buffers and one frame: the
 * compressed output is never held, so a task's memory does not grow with its output. Raw buffers
 * are off the Java heap ({@link DirectMemory}, freed as soon as they are done with): they live as
 * long as the task, and on the heap every young collection would copy them and the old generation
 * would fill with those of finished tasks. They start small (4 KiB, less when there are many
 * thousands of partitions) and double up to the block size, so partitions cost little until they
 * hold data. When the budget says no, every partition's partial block is sealed as a short frame
 * into the file and its raw buffer freed (a spill). Not thread-safe: one task's thread.
 */
public final class PartitionedBlockBuffer implements AutoCloseable {
  private final int blockSize;
  private final int firstBuffer;
  private final BlockEncoder encoder;
  private final MemoryBudget budget;
  private final Partition[] partitions;

  /** Where each frame is encoded before it is appended to the file. */
  private final ByteBuffer frame;

  private final FrameFile frames;
  private long held;
  private long memorySpilled;
  private long spilledBytes;
  private int spillCount;
  private long sealedBlocks;
  private int partitionsWritten;
  private boolean spilling;

  private static final class Partition {
    /** The block being filled, position = its bytes so far; null until the partition has data. */
    ByteBuffer raw;

    int capacity() {
      return raw == null ? 0 : raw.capacity();
    }

    int rawLength() {
      return raw == null ? 0 : raw.position();
    }

    /** Every frame written so far, in order: the segment's index. */
    final SegmentIndexBuilder index = new SegmentIndexBuilder();
  }

  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    this(
        numPartitions,
        blockSize,
        firstBuffer(numPartitions, Math.min(4096, blockSize)),
        encoder,
        budget,
        spillFiles);
  }

  /**
   * A partition's first raw buffer: {@code largest}, or less when there are so many partitions that
   * {@code largest} each would pass {@link #FIRST_BUFFERS} (8 MiB), never under 512 bytes. A task's
   * buffers then grow with its data instead of all taking 4 KiB with their first record: at 20,000
   * partitions that cut issue 22's job's peak direct memory, two map tasks at different points of
   * their output, from 157 to 104 MiB (docs/benchmarks/Partitions-notes.md).
   */
  public static int firstBuffer(int numPartitions, int largest) {
    long fair = Long.highestOneBit(Math.max(1, FIRST_BUFFERS / Math.max(1, numPartitions)));
    return (int) Math.min(largest, Math.max(512, fair));
  }

  /** The first buffers of all partitions together, which decides the first size when many. */
  static final long FIRST_BUFFERS = 8L << 20;

  /**
   * @param firstBuffer first size of a partition's raw buffer (it doubles up to blockSize)
   * @param spillFiles where the frame file goes
   */
  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      int firstBuffer,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    BlockFormat.checkBlockSize(blockSize);
    if (firstBuffer < 1 || firstBuffer > blockSize) {
      throw new IllegalArgumentException(
          "The first buffer size must be 1 to " + blockSize + " bytes, not " + firstBuffer + ".");
    }
    this.blockSize = blockSize;
    this.firstBuffer = firstBuffer;
    this.encoder = encoder;
    this.budget = budget;
    this.frames = new FrameFile(spillFiles, numPartitions);
    // A partition's state is made with its first byte: with many partitions most map tasks
    // write to few of them (16,777,217 partitions, two rows: two of them).
    this.partitions = new Partition[numPartitions];
    int frameRoom = encoder.maxFrameLength(blockSize);
    reserveOrFail(frameRoom);
    this.frame = ByteBuffer.allocate(frameRoom);
  }

  /** Appends one serialized record (or any bytes) to a partition. */
  public void append(int partition, byte[] bytes, int off, int len) throws IOException {
    Partition p = partitions[partition];
    if (p == null) {
      p = new Partition();
      partitions[partition] = p;
      partitionsWritten++;
    }
    while (len > 0) {
      if (p.rawLength() == p.capacity()) {
        growRaw(p);
      }
      ByteBuffer raw = p.raw;
      int n = Math.min(len, raw.remaining());
      raw.put(bytes, off, n);
      off += n;
      len -= n;
      if (raw.position() == blockSize) {
        frames.append(partition, frame, encodeFrame(p));
      }
    }
  }

  private void growRaw(Partition p) throws IOException {
    while (p.rawLength() == p.capacity()) {
      int cap = p.capacity();
      int newCap = Math.min(blockSize, Math.max(firstBuffer, cap * 2));
      // When reserve spills instead, the loop looks again: the spill emptied p.
      if (reserve(newCap - cap)) {
        ByteBuffer bigger = DirectMemory.allocate(newCap);
        if (p.raw != null) {
          bigger.put(ByteBuffers.flip(p.raw));
          DirectMemory.free(p.raw);
        }
        p.raw = bigger;
      }
    }
  }

  /** Encodes the partition's raw bytes into {@link #frame}; returns the frame length. */
  private int encodeFrame(Partition p) throws IOException {
    frame.clear();
    int length = p.index.encode(encoder, ByteBuffers.flip(p.raw.duplicate()), frame);
    ByteBuffers.clear(p.raw);
    return length;
  }

  /**
   * Reserves memory, spilling to make room when the budget says no. Returns false when it spilled
   * (the caller re-checks its state, which the spill changed, and asks again).
   */
  private boolean reserve(long bytes) throws IOException {
    long got = budget.acquire(bytes);
    if (got >= bytes) {
      held += got;
      return true;
    }
    budget.release(got);
    if (spill() == 0) {
      throw new IOException(
          "KAE Shuffle's writer could not get "
              + bytes
              + " bytes of"
              + " execution memory even with nothing left to spill: give executors more memory"
              + " (spark.executor.memory) or use a smaller spark.shuffle.kae.blockSize.");
    }
    return false;
  }

  private void reserveOrFail(long bytes) {
    long got = budget.acquire(bytes);
    if (got < bytes) {
      budget.release(got);
      throw new IllegalStateException(
          "KAE Shuffle's writer could not get the "
              + bytes
              + " bytes it needs for one frame: give executors more memory or use a smaller"
              + " spark.shuffle.kae.blockSize.");
    }
    held += got;
  }

  private void release(long bytes) {
    budget.release(bytes);
    held -= bytes;
  }

  /**
   * Seals every partition's partial block as a short frame into the frame file and frees the raw
   * buffers. Returns the bytes of memory freed (0 when there is nothing to free, or when called
   * from inside a spill).
   */
  public long spill() throws IOException {
    if (spilling) {
      return 0;
    }
    spilling = true;
    try {
      long freed = 0;
      long before = frames.bytes();
      for (int i = 0; i < partitions.length; i++) {
        Partition p = partitions[i];
        if (p == null) {
          continue;
        }
        if (p.rawLength() > 0) {
          frames.append(i, frame, encodeFrame(p));
          sealedBlocks++;
        }
        freed += p.capacity();
        freeRaw(p);
      }
      if (freed > 0) {
        release(freed);
        memorySpilled += freed;
        spilledBytes += frames.bytes() - before;
        spillCount++;
      }
      return freed;
    } finally {
      spilling = false;
    }
  }

  /**
   * Writes every non-empty partition as one segment, in partition order: its frames from the file,
   * the last partial block, the index. Empty partitions are not opened.
   */
  public void writeTo(PartitionStreams streams) throws IOException {
    for (int i = 0; i < partitions.length; i++) {
      Partition p = partitions[i];
      if (p == null || (p.index.blockCount() == 0 && p.rawLength() == 0)) {
        continue;
      }
      OutputStream out = streams.open(i);
      frames.copyTo(i, out);
      if (p.rawLength() > 0) {
        int length = encodeFrame(p);
        out.write(frame.array(), 0, length);
      }
      p.index.writeIndex(out);
      streams.close(i, out);
      release(p.capacity());
      freeRaw(p);
      partitions[i] = null;
    }
  }

  /** Frees a partition's raw buffer (its memory is released to the budget by the caller). */
  private static void freeRaw(Partition p) {
    DirectMemory.free(p.raw);
    p.raw = null;
  }

  /**
   * Bytes of sealed partial blocks spilled under memory pressure (Spark's "disk bytes spilled").
   */
  public long spilledBytes() {
    return spilledBytes;
  }

  /** Memory freed by spills so far (Spark's "memory bytes spilled"). */
  public long memorySpilled() {
    return memorySpilled;
  }

  /**
   * Time in the frame file, writing frames and reading them back: the disk time of this buffer,
   * timed around the disk itself (the output's partition streams are timed by their owner).
   */
  public long diskNanos() {
    return frames.diskNanos();
  }

  /** Partitions that were given bytes, so state: the others cost one null reference each. */
  public int partitionsWritten() {
    return partitionsWritten;
  }

  /** Times memory ran out and partial blocks were sealed. */
  public int spillCount() {
    return spillCount;
  }

  /** Partial blocks closed early, as short frames, because memory ran out. */
  public long sealedBlocks() {
    return sealedBlocks;
  }

  /** Deletes the frame file and gives all memory back. Idempotent. */
  @Override
  public void close() throws IOException {
    try {
      frames.close();
    } finally {
      for (int i = 0; i < partitions.length; i++) {
        if (partitions[i] != null) {
          freeRaw(partitions[i]);
          partitions[i] = null;
        }
      }
      if (held > 0) {
        budget.release(held);
        held = 0;
      }
    }
  }
}
