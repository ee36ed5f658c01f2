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
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.BlockFormat;
import io.github.kaeshuffle.format.SegmentIndexBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The map side's block buffers: serialized records are appended to their partition's raw block
 * buffer, and each time a buffer holds exactly {@code blockSize} bytes it is compressed with one
 * codec call into a frame kept in memory. At the end each partition becomes one segment: its frames
 * (spilled ones first, copied as they are), its last partial block, its index.
 *
 * <p>Memory comes from a {@link MemoryBudget}. Raw buffers start small (4 KiB by default) and
 * double up to the block size, so thousands of partitions cost little until they hold data. When
 * the budget says no, the compressed frames of every partition are written to a spill file (no
 * recompression later: the final merge copies them); only when that is not enough are the partial
 * blocks sealed as short frames and spilled too. Not thread-safe: one task's thread.
 */
public final class PartitionedBlockBuffer implements AutoCloseable {
  private static final byte[] EMPTY = new byte[0];

  private final int blockSize;
  private final int firstBuffer;
  private final BlockEncoder encoder;
  private final MemoryBudget budget;
  private final Partition[] partitions;

  /** Where full blocks are encoded before they are copied into their partition's frames. */
  private final ByteBuffer frame;

  /**
   * Where a spill seals partial blocks: separate, as a spill may come while {@link #frame} holds a
   * frame not yet stored.
   */
  private final ByteBuffer sealFrame;

  private final FrameSpills spills;
  private long held;
  private long frameBytesInMemory;
  private long memorySpilled;
  private long sealedBlocks;
  private boolean spilling;

  private static final class Partition {
    byte[] raw = EMPTY;
    int rawLength;
    byte[] frames = EMPTY;
    int framesLength;

    /** Every frame written so far, spilled or not, in order: the segment's index. */
    final SegmentIndexBuilder index = new SegmentIndexBuilder();
  }

  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    this(numPartitions, blockSize, Math.min(4096, blockSize), encoder, budget, spillFiles);
  }

  /**
   * @param firstBuffer first size of a partition's raw buffer (it doubles up to blockSize)
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
    this.spills = new FrameSpills(spillFiles, numPartitions);
    this.partitions = new Partition[numPartitions];
    for (int i = 0; i < numPartitions; i++) {
      partitions[i] = new Partition();
    }
    int frameRoom = encoder.maxFrameLength(blockSize);
    reserveOrFail(2L * frameRoom);
    this.frame = ByteBuffer.allocate(frameRoom);
    this.sealFrame = ByteBuffer.allocate(frameRoom);
  }

  /** Appends one serialized record (or any bytes) to a partition. */
  public void append(int partition, byte[] bytes, int off, int len) throws IOException {
    Partition p = partitions[partition];
    while (len > 0) {
      if (p.rawLength == p.raw.length) {
        growRaw(p);
      }
      int n = Math.min(len, p.raw.length - p.rawLength);
      System.arraycopy(bytes, off, p.raw, p.rawLength, n);
      p.rawLength += n;
      off += n;
      len -= n;
      if (p.rawLength == blockSize) {
        encodeToMemory(p);
      }
    }
  }

  private void growRaw(Partition p) throws IOException {
    while (p.rawLength == p.raw.length) {
      int cap = p.raw.length;
      int newCap = Math.min(blockSize, Math.max(firstBuffer, cap * 2));
      // When reserve spills instead, the loop looks again: a spill may have sealed p.
      if (reserve(newCap - cap)) {
        p.raw = Arrays.copyOf(p.raw, newCap);
      }
    }
  }

  /** Compresses the partition's full raw block into a frame kept in memory. */
  private void encodeToMemory(Partition p) throws IOException {
    int length = encodeFrame(p, frame);
    while (p.framesLength + length > p.frames.length) {
      int cap = p.frames.length;
      int newCap = Math.max(p.framesLength + length, Math.max(2 * cap, 16 * 1024));
      if (reserve(newCap - cap)) {
        p.frames = Arrays.copyOf(p.frames, newCap);
      }
    }
    ByteBuffers.getAt(frame, 0, p.frames, p.framesLength, length);
    p.framesLength += length;
    frameBytesInMemory += length;
  }

  /** Encodes the partition's raw bytes into {@code into}; returns the frame length. */
  private int encodeFrame(Partition p, ByteBuffer into) throws IOException {
    into.clear();
    int length = p.index.encode(encoder, ByteBuffer.wrap(p.raw, 0, p.rawLength), into);
    p.rawLength = 0;
    return length;
  }

  /**
   * Reserves memory, spilling to make room when the budget says no. Returns false when it spilled
   * (the caller re-checks its state, which the spill may have changed, and asks again).
   */
  private boolean reserve(long bytes) throws IOException {
    long got = budget.acquire(bytes);
    if (got >= bytes) {
      held += got;
      return true;
    }
    budget.release(got);
    if (frameBytesInMemory > 0) {
      spill(false);
    } else if (heldByPartitions() > 0) {
      spill(true);
    } else {
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

  private long heldByPartitions() {
    long sum = 0;
    for (Partition p : partitions) {
      sum += p.raw.length + p.frames.length;
    }
    return sum;
  }

  /**
   * Writes the frames held in memory to a new spill file and frees their memory; with {@code
   * sealPartials} also closes every partial block as a short frame and frees the raw buffers.
   * Returns the bytes of memory freed.
   */
  public long spill(boolean sealPartials) throws IOException {
    if (spilling || (frameBytesInMemory == 0 && !(sealPartials && heldByPartitions() > 0))) {
      return 0;
    }
    spilling = true;
    try {
      long before = heldByPartitions();
      spills.write((i, out) -> spillPartition(partitions[i], sealPartials, out));
      long freed = before - heldByPartitions();
      memorySpilled += freed;
      release(freed);
      return freed;
    } finally {
      spilling = false;
    }
  }

  /** Writes a partition's frames (and sealed partial block) to a spill; frees its buffers. */
  private long spillPartition(Partition p, boolean sealPartials, OutputStream out)
      throws IOException {
    long written = p.framesLength;
    out.write(p.frames, 0, p.framesLength);
    frameBytesInMemory -= p.framesLength;
    p.framesLength = 0;
    p.frames = EMPTY;
    if (sealPartials) {
      if (p.rawLength > 0) {
        int length = encodeFrame(p, sealFrame);
        out.write(sealFrame.array(), 0, length);
        written += length;
        sealedBlocks++;
      }
      p.raw = EMPTY;
    }
    return written;
  }

  /**
   * Writes every non-empty partition as one segment, in partition order: spilled frames (copied),
   * frames in memory, the last partial block, the index. Empty partitions are not opened.
   */
  public void writeTo(PartitionStreams streams) throws IOException {
    try {
      for (int i = 0; i < partitions.length; i++) {
        Partition p = partitions[i];
        if (p.index.blockCount() == 0 && p.rawLength == 0) {
          continue;
        }
        OutputStream out = streams.open(i);
        spills.copyTo(i, out);
        out.write(p.frames, 0, p.framesLength);
        if (p.rawLength > 0) {
          int length = encodeFrame(p, frame);
          out.write(frame.array(), 0, length);
        }
        p.index.writeIndex(out);
        streams.close(i, out);
        release(p.raw.length + p.frames.length);
        frameBytesInMemory -= p.framesLength;
        partitions[i] = new Partition();
      }
    } finally {
      spills.doneReading();
    }
  }

  public long spilledBytes() {
    return spills.bytes();
  }

  /** Memory freed by spills so far (Spark's "memory bytes spilled"). */
  public long memorySpilled() {
    return memorySpilled;
  }

  /**
   * Time in the spill files' streams and reading them back: the disk time of this buffer, timed
   * around the disk itself (the output's partition streams are timed by their owner).
   */
  public long diskNanos() {
    return spills.diskNanos();
  }

  public int spillCount() {
    return spills.count();
  }

  /** Partial blocks closed early, as short frames, because memory ran out. */
  public long sealedBlocks() {
    return sealedBlocks;
  }

  /** Deletes spill files and gives all memory back. Idempotent. */
  @Override
  public void close() throws IOException {
    try {
      spills.close();
    } finally {
      for (int i = 0; i < partitions.length; i++) {
        partitions[i] = new Partition();
      }
      if (held > 0) {
        budget.release(held);
        held = 0;
      }
    }
  }
}
