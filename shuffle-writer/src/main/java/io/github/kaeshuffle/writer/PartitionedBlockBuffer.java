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
 * <p>Memory comes from a {@link MemoryBudget} and is only ever the raw buffers, one frame and one
 * gather block: the compressed output is never held, so a task's memory does not grow with its
 * output. A partition's raw buffer starts as a chain of small chunks carved from a few large pages
 * ({@link RawChunks}; chunks of 4 KiB, less when there are many thousands of partitions), so
 * partitions cost little until they hold data and thousands of small buffers cost the collector
 * nothing. One that fills {@link #SMALL_MOST} bytes (or the block, if smaller) moves into one
 * direct buffer ({@link DirectMemory}, mapped from the kernel at that size and freed as soon as it
 * is done with), which doubles up to the block size; those large buffers together stay within their
 * own bound ({@link LargeBuffers}): when a buffer would pass it, the fullest partition's bytes are
 * parked, raw, in the frame file, and read back into one assembly block when its block is full, so
 * each block is still compressed once, whole. A chain's bytes are gathered into the direct gather
 * block when its frame is made, so the codec always reads memory the collector does not move. When
 * the budget says no, every partition's partial block is sealed as a short frame into the file and
 * all raw memory freed (a spill). Not thread-safe: one task's thread.
 */
public final class PartitionedBlockBuffer implements AutoCloseable {
  /**
   * The most bytes a partition keeps in a chain of chunks: past it the partition moves to one
   * direct buffer, mapped from the kernel from this size up ({@link DirectMemory#MAP_THRESHOLD}),
   * and the gather block for chains is no larger.
   */
  static final int SMALL_MOST = DirectMemory.MAP_THRESHOLD;

  private final int blockSize;
  private final BlockEncoder encoder;
  private final MemoryBudget budget;
  private final Partition[] partitions;

  /** The chunks of every partition's small raw buffer. */
  private final RawChunks chunks;

  /** Bytes a chain may reach, a whole number of chunks: at most the block and SMALL_MOST. */
  private final int smallLimit;

  /**
   * Where each frame is encoded before it is appended to the file: made for the first frame's need
   * and grown (at most to a full block's frame, reserved) as larger ones come.
   */
  private ByteBuffer frame;

  /** Where a chain's bytes are gathered for the codec; direct, made when first needed. */
  private ByteBuffer gather;

  private final FrameFile frames;

  /** The partitions holding a direct buffer, within their bound. */
  private final LargeBuffers large;

  private long held;
  private long memorySpilled;
  private long spilledBytes;
  private int spillCount;
  private long sealedBlocks;
  private long parkedBytes;

  /**
   * Where a block with parked bytes is put back together for its one codec call: direct, one block,
   * made (and reserved) with the first bytes parked.
   */
  private ByteBuffer assembly;

  private int partitionsWritten;
  private boolean spilling;

  /**
   * One partition's raw block: a chain of chunks while small, then one direct buffer, after any
   * bytes of the block parked in the frame file. Empty after each frame made from it.
   */
  static final class Partition {
    final int id;

    /** The block once past the chain limit, position = its bytes so far; null while small. */
    ByteBuffer raw;

    /** Where {@link LargeBuffers} keeps it while it has a direct buffer; -1 otherwise. */
    int largeSlot = -1;

    /** The chain's first and last chunk; -1 when it has none. */
    int head = -1;

    int tail = -1;

    /** Bytes in the chain. */
    int chained;

    /** The block's first bytes, parked in the frame file; 0 if none. */
    int parkedBytes;

    Partition(int id) {
      this.id = id;
    }

    /** The block's bytes in memory. */
    int rawLength() {
      return raw == null ? chained : raw.position();
    }

    /** The block's bytes so far: parked and in memory. */
    int blockLength() {
      return parkedBytes + rawLength();
    }

    /**
     * Every frame written so far, in order: the segment's index; null before the first frame. Made
     * then because a map task's partitions live as long as the task, so the collector promotes them
     * to the old generation, where what dies with the task is garbage that G1's mixed collections
     * chase (issue 22: 20,000 of them per task).
     */
    SegmentIndexBuilder index;

    int blockCount() {
      return index == null ? 0 : index.blockCount();
    }

    SegmentIndexBuilder index() {
      if (index == null) {
        index = new SegmentIndexBuilder();
      }
      return index;
    }
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
        0,
        encoder,
        budget,
        spillFiles);
  }

  /**
   * A partition's first raw buffer, the chunk size of its chain: {@code largest}, or less when
   * there are so many partitions that {@code largest} each would pass {@link #FIRST_BUFFERS} (8
   * MiB), never under 512 bytes. A task's buffers then grow with its data instead of all taking 4
   * KiB with their first record, and a chain's last chunk, partly filled, wastes little: at 20,000
   * partitions, as separate buffers before chains, that cut issue 22's job's peak direct memory
   * from 157 to 104 MiB (docs/benchmarks/Partitions-notes.md).
   */
  public static int firstBuffer(int numPartitions, int largest) {
    long fair = Long.highestOneBit(Math.max(1, FIRST_BUFFERS / Math.max(1, numPartitions)));
    return (int) Math.min(largest, Math.max(512, fair));
  }

  /** The first buffers of all partitions together, which decides the first size when many. */
  static final long FIRST_BUFFERS = 8L << 20;

  /**
   * @param firstBuffer the chunk size of a partition's small raw buffer (at most {@link
   *     #SMALL_MOST}); past the chain limit it doubles up to blockSize
   * @param largeMemory the most bytes of direct raw buffers at once, 0 for no bound; else at least
   *     two blocks
   * @param spillFiles where the frame file goes
   */
  public PartitionedBlockBuffer(
      int numPartitions,
      int blockSize,
      int firstBuffer,
      long largeMemory,
      BlockEncoder encoder,
      MemoryBudget budget,
      SpillFiles spillFiles) {
    BlockFormat.checkBlockSize(blockSize);
    if (firstBuffer < 1 || firstBuffer > blockSize) {
      throw new IllegalArgumentException(
          "The first buffer size must be 1 to " + blockSize + " bytes, not " + firstBuffer + ".");
    }
    if (largeMemory != 0 && largeMemory < 2L * blockSize) {
      throw new IllegalArgumentException(
          "The large buffers' bound must be 0 or at least two blocks ("
              + 2L * blockSize
              + " bytes), not "
              + largeMemory
              + ".");
    }
    this.large = new LargeBuffers(largeMemory);
    this.blockSize = blockSize;
    this.encoder = encoder;
    this.budget = budget;
    int chunk = chunkSize(firstBuffer);
    this.chunks = new RawChunks(chunk, budget.onHeap());
    this.smallLimit = smallLimit(blockSize, chunk);
    this.frames = new FrameFile(spillFiles, numPartitions);
    // A partition's state is made with its first byte: with many partitions most map tasks
    // write to few of them (16,777,217 partitions, two rows: two of them).
    this.partitions = new Partition[numPartitions];
    // The frame and gather block are reserved whole and made as frames need them: most tasks of a
    // job with many small tasks encode a few hundred bytes (20,000 tasks, each allocating a full
    // block's frame up front, allocated about 6 GB of heap in issue 22's job, by a JFR profile).
    reserveOrFail(workingMemory(encoder, blockSize, firstBuffer));
  }

  /** The small chunks' size: the first buffer's, at most SMALL_MOST. */
  private static int chunkSize(int firstBuffer) {
    return Math.min(firstBuffer, SMALL_MOST);
  }

  /**
   * Bytes a chain of {@code chunk}-byte chunks may reach: whole chunks, at most the block and
   * SMALL_MOST.
   */
  private static int smallLimit(int blockSize, int chunk) {
    return Math.min(blockSize, SMALL_MOST) / chunk * chunk;
  }

  /**
   * Memory a buffer takes before its first byte: one frame and the gather block (the rest is raw
   * buffers, as data comes).
   */
  static long workingMemory(BlockEncoder encoder, int blockSize, int firstBuffer) {
    return encoder.maxFrameLength(blockSize) + (long) smallLimit(blockSize, chunkSize(firstBuffer));
  }

  /** Appends one serialized record (or any bytes) to a partition. */
  public void append(int partition, byte[] bytes, int off, int len) throws IOException {
    Partition p = partitions[partition];
    if (p == null) {
      p = new Partition(partition);
      partitions[partition] = p;
      partitionsWritten++;
    }
    while (len > 0) {
      // 0 when making room spilled instead: p is then empty and small, and is looked at again.
      int n = p.raw == null ? putChained(p, bytes, off, len) : putRaw(p, bytes, off, len);
      off += n;
      len -= n;
      if (p.blockLength() == blockSize) {
        int length = encodeFrame(p);
        frames.append(partition, frame, length);
      }
    }
  }

  private int putChained(Partition p, byte[] bytes, int off, int len) throws IOException {
    int at = p.chained % chunks.chunkSize();
    if (at == 0 && p.chained == smallLimit) {
      return toDirect(p) ? putRaw(p, bytes, off, len) : 0;
    }
    if (at == 0 && !addChunk(p)) {
      return 0;
    }
    int n = Math.min(Math.min(len, chunks.chunkSize() - at), blockSize - p.blockLength());
    chunks.put(p.tail, at, bytes, off, n);
    p.chained += n;
    return n;
  }

  private int putRaw(Partition p, byte[] bytes, int off, int len) throws IOException {
    if (!p.raw.hasRemaining() && !growRaw(p)) {
      return 0;
    }
    int n = Math.min(Math.min(len, p.raw.remaining()), blockSize - p.blockLength());
    p.raw.put(bytes, off, n);
    return n;
  }

  /** Adds a chunk to p's chain, a new page first if all are taken; false when it spilled. */
  private boolean addChunk(Partition p) throws IOException {
    int id = chunks.take();
    if (id < 0) {
      if (!reserve(chunks.nextPageBytes())) {
        return false;
      }
      chunks.addPage();
      id = chunks.take();
    }
    if (p.head < 0) {
      p.head = id;
    } else {
      chunks.link(p.tail, id);
    }
    p.tail = id;
    return true;
  }

  /**
   * Moves p's full chain into a direct buffer twice its size; false when making room parked p or
   * spilled.
   */
  private boolean toDirect(Partition p) throws IOException {
    ByteBuffer raw = largeBuffer(p, Math.min(blockSize, smallLimit * 2));
    if (raw == null) {
      return false;
    }
    chunks.copyChain(p.head, p.chained, raw);
    freeChain(p);
    p.raw = raw;
    large.add(p);
    return true;
  }

  /** Doubles p's full direct buffer; false when making room parked p or spilled. */
  private boolean growRaw(Partition p) throws IOException {
    ByteBuffer bigger = largeBuffer(p, Math.min(blockSize, p.raw.capacity() * 2));
    if (bigger == null) {
      return false;
    }
    bigger.put(ByteBuffers.flip(p.raw));
    retire(p.raw);
    p.raw = bigger;
    return true;
  }

  /**
   * A direct buffer of at least {@code capacity} bytes for p within the large buffers' bound: a
   * spare, else a new one, room made first by unmapping a spare, else by giving up another
   * partition's buffer (an empty one as it is, a fuller one's bytes parked in the frame file: raw,
   * the block is compressed once, when full). Null when p itself was the fullest and was parked
   * instead, or when memory spilled (p is looked at again).
   */
  private ByteBuffer largeBuffer(Partition p, int capacity) throws IOException {
    while (true) {
      ByteBuffer spare = large.takeSpare(capacity);
      if (spare != null) {
        return spare;
      }
      if (large.fits(capacity)) {
        return mapLarge(capacity);
      }
      ByteBuffer unused = large.dropSpare();
      if (unused != null) {
        unmapLarge(unused);
        continue;
      }
      Partition v = large.victim();
      if (v == null || v == p || (v.rawLength() > 0 && v.rawLength() <= p.rawLength())) {
        park(p);
        return null;
      }
      if (v.rawLength() > 0 && !park(v)) {
        return null;
      }
      large.remove(v);
      retire(v.raw);
      v.raw = null;
    }
  }

  /** A new large buffer, reserved; null when reserving spilled. */
  private ByteBuffer mapLarge(int capacity) throws IOException {
    if (!reserve(capacity)) {
      return null;
    }
    large.mapped(capacity);
    return DirectMemory.allocate(capacity);
  }

  private void unmapLarge(ByteBuffer b) {
    release(unmap(b));
  }

  /** Unmaps a large buffer; returns its bytes, for the caller to release. */
  private int unmap(ByteBuffer b) {
    int bytes = b.capacity();
    large.unmapped(bytes);
    DirectMemory.free(b);
    return bytes;
  }

  /**
   * A large buffer no partition holds any more: a spare under a bound, where buffers go round;
   * unmapped without one (nothing would take it back before the task ends).
   */
  private void retire(ByteBuffer b) {
    if (large.bounded()) {
      large.addSpare(b);
    } else {
      unmapLarge(b);
    }
  }

  /**
   * Moves p's bytes in memory to the frame file, after any it parked before; p keeps its buffer,
   * empty. False when reserving the assembly block spilled instead (p was then sealed).
   */
  private boolean park(Partition p) throws IOException {
    if (assembly == null) {
      if (!reserve(blockSize)) {
        return false;
      }
      assembly = DirectMemory.allocate(blockSize);
    }
    int n = p.rawLength();
    frames.park(p.id, inMemory(p));
    p.parkedBytes += n;
    parkedBytes += n;
    emptyInMemory(p);
    return true;
  }

  /**
   * Encodes the partition's raw bytes into {@link #frame} and empties the partition (a chain's
   * chunks go back to the free list); returns the frame length.
   */
  private int encodeFrame(Partition p) throws IOException {
    makeFrame(encoder.maxFrameLength(p.blockLength()));
    ByteBuffer input = p.parkedBytes > 0 ? assemble(p) : inMemory(p);
    int length = p.index().encode(encoder, input, frame);
    emptyInMemory(p);
    return length;
  }

  /** p's bytes in memory, readable: a view of its direct buffer, or its chain gathered. */
  private ByteBuffer inMemory(Partition p) {
    return p.raw != null ? ByteBuffers.flip(p.raw.duplicate()) : gather(p);
  }

  /** Empties p's bytes in memory (a chain's chunks go back to the free list). */
  private void emptyInMemory(Partition p) {
    if (p.raw != null) {
      ByteBuffers.clear(p.raw);
    } else {
      freeChain(p);
    }
  }

  /** p's whole block in the assembly block: its parked bytes read back, then those in memory. */
  private ByteBuffer assemble(Partition p) throws IOException {
    ByteBuffers.clear(assembly);
    frames.readParked(p.id, assembly);
    assembly.put(inMemory(p));
    p.parkedBytes = 0;
    return ByteBuffers.flip(assembly);
  }

  /** Makes {@link #frame} empty with at least {@code need} bytes, doubling as it grows. */
  private void makeFrame(int need) {
    if (frame == null || frame.capacity() < need) {
      int most = encoder.maxFrameLength(blockSize);
      int grown = frame == null ? need : Math.max(need, frame.capacity() * 2);
      frame = ByteBuffer.allocate(Math.min(most, grown));
    }
    frame.clear();
  }

  /** The frame buffer's size so far (0 before the first frame): for tests. */
  int frameCapacity() {
    return frame == null ? 0 : frame.capacity();
  }

  /** p's chain in the gather block, made or grown (up to smallLimit, reserved) as needed. */
  private ByteBuffer gather(Partition p) {
    if (gather == null || gather.capacity() < p.chained) {
      DirectMemory.free(gather);
      int need = Math.max(chunks.chunkSize(), p.chained);
      int size = Integer.highestOneBit(need);
      gather = DirectMemory.allocate(Math.min(smallLimit, size < need ? size * 2 : size));
    }
    ByteBuffers.clear(gather);
    chunks.copyChain(p.head, p.chained, gather);
    return ByteBuffers.flip(gather);
  }

  private void freeChain(Partition p) {
    if (p.head >= 0) {
      chunks.freeChain(p.head, p.tail);
    }
    p.head = -1;
    p.tail = -1;
    p.chained = 0;
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
        if (p.blockLength() > 0) {
          int length = encodeFrame(p);
          frames.append(i, frame, length);
          sealedBlocks++;
        }
        freed += freeRaw(p);
      }
      freed += chunks.releaseAll() + freeSpares();
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
      if (p == null || (p.blockCount() == 0 && p.blockLength() == 0)) {
        continue;
      }
      OutputStream out = streams.open(i);
      frames.copyTo(i, out);
      if (p.blockLength() > 0) {
        int length = encodeFrame(p);
        out.write(frame.array(), 0, length);
      }
      p.index().writeIndex(out);
      streams.close(i, out);
      release(freeRaw(p));
      partitions[i] = null;
    }
    release(chunks.releaseAll() + freeSpares());
  }

  /**
   * Frees a partition's direct buffer, if it has one; returns its bytes, for the caller to release
   * (a chain's chunks are the pages', released with them).
   */
  private long freeRaw(Partition p) {
    if (p.raw == null) {
      return 0;
    }
    large.remove(p);
    int bytes = unmap(p.raw);
    p.raw = null;
    return bytes;
  }

  /** Unmaps every spare large buffer; returns their bytes, for the caller to release. */
  private long freeSpares() {
    long bytes = 0;
    for (ByteBuffer b = large.dropSpare(); b != null; b = large.dropSpare()) {
      bytes += unmap(b);
    }
    return bytes;
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

  /**
   * Bytes parked in the frame file to keep the large buffers within their bound (each read back
   * once, when its block is compressed).
   */
  public long parkedBytes() {
    return parkedBytes;
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
          freeRaw(partitions[i]);
          partitions[i] = null;
        }
      }
      chunks.releaseAll();
      freeSpares();
      DirectMemory.free(gather);
      gather = null;
      DirectMemory.free(assembly);
      assembly = null;
      if (held > 0) {
        budget.release(held);
        held = 0;
      }
    }
  }
}
