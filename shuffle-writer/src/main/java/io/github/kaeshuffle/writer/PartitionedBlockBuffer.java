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
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The map side's block buffers: serialized records are appended to their partition's raw block
 * ({@link RawBlock}), and each time a block holds exactly {@code blockSize} bytes it is compressed
 * with one codec call into a frame that goes to the task's {@link FrameFile}, in memory up to a
 * bound, then on disk. At the end each partition becomes one segment: its frames (copied, never
 * recompressed), its last partial block, its index.
 *
 * <p>This class decides where a partition's next bytes go: a chain of small chunks while the block
 * is small ({@link ChunkChains}), then one direct buffer that doubles up to the block ({@link
 * LargeBuffers}, which bounds them by parking the fullest partition's bytes in the frame file).
 * Every byte of memory is reserved first ({@link HeldMemory}); when the budget says no, the frames
 * in memory move to the file, every partial block is sealed as a short frame after them and all raw
 * memory is freed (a spill). docs/design.md ("Block writer") says why each part is as it is. Not
 * thread-safe: one task's thread.
 */
public final class PartitionedBlockBuffer implements AutoCloseable {
  private final int blockSize;
  private final RawBlock[] partitions;
  private final HeldMemory memory;
  private final ChunkChains chains;
  private final FrameMaker frameMaker;
  private final FrameFile frames;

  /** The partitions holding a direct buffer, within their bound. */
  private final LargeBuffers large;

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
    this.large = new LargeBuffers(largeMemory, blockSize, memory);
    int chunk = BufferSizes.chunkSize(firstBuffer, blockSize);
    this.chains =
        new ChunkChains(
            new RawChunks(chunk, budget.onHeap()),
            BufferSizes.smallLimit(blockSize, chunk),
            memory);
    this.frameMaker = new FrameMaker(encoder, blockSize, memory);
    this.frames =
        new FrameFile(
            spillFiles, numPartitions, new FramePages(frameMemory, memory, budget.onHeap()));
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
      int n = p.raw == null ? putChained(p, bytes, off, len) : putRaw(p, bytes, off, len);
      off += n;
      len -= n;
      if (p.blockLength() == blockSize) {
        int length = encodeFrame(p);
        frames.append(partition, frameMaker.frame(), length);
      }
    }
  }

  private int putChained(RawBlock p, byte[] bytes, int off, int len) throws IOException {
    if (chains.full(p)) {
      return toDirect(p) ? putRaw(p, bytes, off, len) : 0;
    }
    return chains.put(p, bytes, off, Math.min(len, blockSize - p.blockLength()));
  }

  private int putRaw(RawBlock p, byte[] bytes, int off, int len) throws IOException {
    if (!p.raw.hasRemaining() && !growRaw(p)) {
      return 0;
    }
    int n = Math.min(Math.min(len, p.raw.remaining()), blockSize - p.blockLength());
    p.raw.put(bytes, off, n);
    return n;
  }

  /**
   * Moves p's full chain into a direct buffer twice its size; false when making room parked p or
   * spilled.
   */
  private boolean toDirect(RawBlock p) throws IOException {
    ByteBuffer raw = large.bufferFor(p, Math.min(blockSize, p.chained * 2), this::park);
    if (raw == null) {
      return false;
    }
    chains.copy(p, raw);
    chains.free(p);
    p.raw = raw;
    large.add(p);
    return true;
  }

  /** Doubles p's full direct buffer; false when making room parked p or spilled. */
  private boolean growRaw(RawBlock p) throws IOException {
    ByteBuffer bigger = large.bufferFor(p, Math.min(blockSize, p.raw.capacity() * 2), this::park);
    if (bigger == null) {
      return false;
    }
    bigger.put(ByteBuffers.flip(p.raw));
    large.retire(p.raw);
    p.raw = bigger;
    return true;
  }

  /**
   * Moves p's bytes in memory to the frame file, after any it parked before; p keeps its buffer,
   * empty. False when reserving the assembly block spilled instead (p was then sealed).
   */
  private boolean park(RawBlock p) throws IOException {
    if (!frameMaker.readyToPark()) {
      return false;
    }
    int n = p.rawLength();
    frames.park(p.id, inMemory(p));
    p.parkedBytes += n;
    counters.parked(n);
    emptyInMemory(p);
    return true;
  }

  /**
   * Encodes the partition's block into the frame maker's frame and empties the partition (a chain's
   * chunks go back to the free list); returns the frame length.
   */
  private int encodeFrame(RawBlock p) throws IOException {
    ByteBuffer input =
        p.parkedBytes > 0 ? frameMaker.assemble(frames, p, inMemory(p)) : inMemory(p);
    int length = frameMaker.encode(p, input);
    emptyInMemory(p);
    return length;
  }

  /** p's bytes in memory, readable: a view of its direct buffer, or its chain gathered. */
  private ByteBuffer inMemory(RawBlock p) {
    return p.raw != null ? ByteBuffers.flip(p.raw.duplicate()) : chains.gather(p);
  }

  /** Empties p's bytes in memory (a chain's chunks go back to the free list). */
  private void emptyInMemory(RawBlock p) {
    if (p.raw != null) {
      ByteBuffers.clear(p.raw);
    } else {
      chains.free(p);
    }
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
        freed += large.free(p);
      }
      freed += chains.releaseAll() + large.freeSpares();
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
      memory.release(large.free(p));
      partitions[i] = null;
    }
    memory.release(chains.releaseAll() + large.freeSpares());
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
    return large.bytes();
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
          large.free(partitions[i]);
          partitions[i] = null;
        }
      }
      chains.releaseAll();
      chains.close();
      large.freeSpares();
      frameMaker.close();
      memory.releaseAll();
    }
  }
}
