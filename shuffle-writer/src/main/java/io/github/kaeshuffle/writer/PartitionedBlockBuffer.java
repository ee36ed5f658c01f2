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

import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.BlockFormat;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The map side's block buffers: serialized records are appended to their partition's raw block
 * ({@link RawBlock}), and each time a block holds exactly {@code blockSize} bytes it is compressed
 * with one codec call into a frame that goes to the task's {@link FrameFile}, in memory up to a
 * bound, then on disk. At the end each partition becomes one segment: its frames (copied, never
 * recompressed), its last partial block, its index.
 *
 * <p>Where a block's bytes live while it fills (small chunks, one direct buffer, parked in the
 * frame file) is {@link RawBlocks}' concern; this class puts bytes and compresses full blocks.
 * Every byte of memory is reserved first ({@link HeldMemory}); when the budget says no, the frames
 * in memory move to the file, every partial block is sealed as a short frame after them and all raw
 * memory is freed (a spill). docs/design.md ("Block writer") says why each part is as it is. Not
 * thread-safe: one task's thread.
 */
public final class PartitionedBlockBuffer implements AutoCloseable {
  private final int blockSize;
  private final RawBlock[] partitions;
  private final HeldMemory memory;
  private final RawBlocks blocks;
  private final FrameMaker frameMaker;
  private final FrameFile frames;
  private final BufferCounters counters = new BufferCounters();
  private boolean spilling;

  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    this(
        numPartitions,
        blockSize,
        BufferSizes.firstBuffer(numPartitions, Math.min(4096, blockSize)),
        0,
        0,
        encoder,
        budget,
        spillFiles);
  }

  /**
   * @param firstBuffer the chunk size of a partition's small raw buffer (at most {@link
   *     BufferSizes#SMALL_MOST}); past the chain limit it doubles up to blockSize
   * @param largeMemory the most bytes of direct raw buffers at once, 0 for no bound; else at least
   *     two blocks
   * @param frameMemory the most bytes of frames (and parked bytes) kept in memory before the frame
   *     file; under one {@link FramePages#PAGE} for none
   * @param spillFiles where the frame file goes
   */
  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      int firstBuffer,
      long largeMemory,
      long frameMemory,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    BlockFormat.checkBlockSize(blockSize);
    this.blockSize = blockSize;
    this.memory = new HeldMemory(budget, this::spill);
    this.frameMaker = new FrameMaker(encoder, blockSize);
    this.frames =
        new FrameFile(
            spillFiles, numPartitions, new FramePages(frameMemory, memory, budget.onHeap()));
    this.blocks =
        new RawBlocks(
            blockSize, firstBuffer, largeMemory, budget.onHeap(), frames, memory, counters);
    // A partition's state is made with its first byte: with many partitions most map tasks
    // write to few of them (16,777,217 partitions, two rows: two of them).
    this.partitions = new RawBlock[numPartitions];
    // The frame and the gather block are reserved whole here and made as frames need them.
    memory.reserveOrFail(BufferSizes.workingMemory(encoder, blockSize, firstBuffer));
  }

  /** Appends one serialized record (or any bytes) to a partition. */
  public void append(int partition, byte[] bytes, int off, int len) throws IOException {
    RawBlock p = partitions[partition];
    if (p == null) {
      p = new RawBlock(partition);
      partitions[partition] = p;
      counters.partitionWritten();
    }
    while (len > 0) {
      // 0 when making room spilled instead: p is then empty and small, and is looked at again.
      int n = blocks.put(p, bytes, off, len);
      off += n;
      len -= n;
      if (p.blockLength() == blockSize) {
        int length = encodeFrame(p);
        frames.append(partition, frameMaker.frame(), length);
      }
    }
  }

  /** Encodes the partition's whole block into the frame maker's frame, empties the partition. */
  private int encodeFrame(RawBlock p) throws IOException {
    int length = frameMaker.encode(p, blocks.whole(p));
    blocks.empty(p);
    return length;
  }

  /** The frame buffer's size so far (0 before the first frame): for tests. */
  int frameCapacity() {
    return frameMaker.frameCapacity();
  }

  /**
   * Moves the frames in memory to the frame file, seals every partition's partial block as a short
   * frame after them and frees the raw buffers. Returns the bytes of memory freed (0 when there is
   * nothing to free, or when called from inside a spill).
   */
  public long spill() throws IOException {
    if (spilling) {
      return 0;
    }
    spilling = true;
    try {
      long moved = frames.moveToDisk();
      long movedBytes = Math.min(moved, frames.length());
      long freed = 0;
      long before = frames.bytes();
      for (int i = 0; i < partitions.length; i++) {
        RawBlock p = partitions[i];
        if (p == null) {
          continue;
        }
        if (p.blockLength() > 0) {
          int length = encodeFrame(p);
          frames.append(i, frameMaker.frame(), length);
          counters.sealed();
        }
        freed += blocks.free(p);
      }
      freed += blocks.freeChainsAndSpares();
      if (freed > 0) {
        memory.release(freed);
      }
      if (freed + moved > 0) {
        counters.spilled(freed + moved, frames.bytes() - before + movedBytes);
      }
      return freed + moved;
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
      RawBlock p = partitions[i];
      if (p == null || p.isEmpty()) {
        continue;
      }
      OutputStream out = streams.open(i);
      frames.copyTo(i, out);
      if (p.blockLength() > 0) {
        int length = encodeFrame(p);
        out.write(frameMaker.frame().array(), 0, length);
      }
      p.index().writeIndex(out);
      streams.close(i, out);
      memory.release(blocks.free(p));
      partitions[i] = null;
    }
    memory.release(blocks.freeChainsAndSpares());
  }

  /** What the buffer did so far: spills, sealed blocks, parked bytes. */
  public BufferCounters counters() {
    return counters;
  }

  /**
   * Time in the frame file, writing frames and reading them back: the disk time of this buffer,
   * timed around the disk itself (the output's partition streams are timed by their owner).
   */
  public long diskNanos() {
    return frames.diskNanos();
  }

  /** Bytes of direct raw buffers held now: for tests. */
  long largeBytes() {
    return blocks.largeBytes();
  }

  /** The frame file's length now (frames, parked bytes and holes): for tests. */
  long frameFileLength() {
    return frames.length();
  }

  /** Deletes the frame file and gives all memory back. Idempotent. */
  @Override
  public void close() throws IOException {
    try {
      frames.close();
    } finally {
      for (int i = 0; i < partitions.length; i++) {
        if (partitions[i] != null) {
          blocks.free(partitions[i]);
          partitions[i] = null;
        }
      }
      blocks.close();
      memory.releaseAll();
    }
  }
}
