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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.DirectMemory;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.SegmentIndex;
import io.github.kaeshuffle.format.SegmentInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionedBlockBufferTest {
  private static final int BLOCK = 16 * 1024;

  /** Collects each partition's bytes; checks partitions come in increasing order. */
  static final class Collected implements PartitionStreams {
    final Map<Integer, ByteArrayOutputStream> out = new HashMap<>();
    int last = -1;

    @Override
    public OutputStream open(int partition) {
      assertTrue(partition > last, "partitions out of order");
      last = partition;
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      out.put(partition, b);
      return b;
    }

    @Override
    public void close(int partition, OutputStream stream) {}
  }

  private static BlockCodec zlib() throws Exception {
    return Codecs.exact(CodecOptions.builder().codec(CodecKind.ZLIB).build());
  }

  private record Result(
      Collected collected,
      Map<Integer, ByteArrayOutputStream> expected,
      long codecCalls,
      long spills,
      long sealed,
      LimitedBudget budget,
      int files) {}

  /** A buffer with a budget larger than any test here needs, spilling into dir. */
  private static PartitionedBlockBuffer buffer(
      int partitions, int blockSize, BlockEncoder enc, Path dir) {
    return new PartitionedBlockBuffer(
        partitions,
        blockSize,
        enc,
        new LimitedBudget(1L << 30),
        () -> Files.createTempFile(dir, "spill", ".frames"));
  }

  private static Result run(int partitions, int records, long budgetBytes, Path dir)
      throws Exception {
    return run(partitions, records, budgetBytes, 0, dir);
  }

  /** {@link #run} with up to {@code frameMemory} bytes of frames kept in memory. */
  private static Result run(
      int partitions, int records, long budgetBytes, long frameMemory, Path dir) throws Exception {
    LimitedBudget budget = new LimitedBudget(budgetBytes);
    int[] files = new int[1];
    Map<Integer, ByteArrayOutputStream> expected = new HashMap<>();
    Collected collected = new Collected();
    Random r = new Random(partitions * 31L + records);
    long calls;
    long spills;
    long sealed;
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf =
            new PartitionedBlockBuffer(
                partitions,
                BLOCK,
                BufferSizes.firstBuffer(partitions, 4096),
                0,
                frameMemory,
                enc,
                budget,
                () -> {
                  files[0]++;
                  return Files.createTempFile(dir, "spill", ".frames");
                })) {
      for (int i = 0; i < records; i++) {
        // Skewed: low partitions get most records; some partitions get none at all.
        int p = Math.min(partitions - 1, (int) Math.abs(r.nextGaussian() * partitions / 4));
        byte[] rec = ("record-" + i + "-" + "x".repeat(r.nextInt(200)) + ";").getBytes();
        buf.append(p, rec, 0, rec.length);
        expected.computeIfAbsent(p, k -> new ByteArrayOutputStream()).write(rec);
      }
      buf.writeTo(collected);
      calls = enc.stats().codecCalls();
      spills = buf.counters().spillCount();
      sealed = buf.counters().sealedBlocks();
    }
    return new Result(collected, expected, calls, spills, sealed, budget, files[0]);
  }

  private static void assertSameBytes(Result res) throws IOException {
    assertEquals(res.expected().keySet(), res.collected().out.keySet(), "non-empty partitions");
    long frames = 0;
    for (Map.Entry<Integer, ByteArrayOutputStream> e : res.expected().entrySet()) {
      byte[] segment = res.collected().out.get(e.getKey()).toByteArray();
      SegmentIndex idx = SegmentIndex.parse(ByteBuffer.wrap(segment));
      frames += idx.blockCount();
      try (BlockDecoder d = new BlockDecoder(null)) {
        assertArrayEquals(
            e.getValue().toByteArray(),
            new SegmentInputStream(ByteBuffer.wrap(segment), d).readAllBytes(),
            "partition " + e.getKey());
      }
    }
    // Every frame on disk was compressed exactly once: nothing was recompressed on merge.
    assertEquals(frames, res.codecCalls());
  }

  @Test
  void withEnoughMemoryEveryBlockButTheLastIsFull(@TempDir Path dir) throws Exception {
    Result res = run(300, 40_000, 1L << 30, dir);
    assertEquals(0, res.spills());
    assertSameBytes(res);
    for (ByteArrayOutputStream seg : res.collected().out.values()) {
      SegmentIndex idx = SegmentIndex.parse(ByteBuffer.wrap(seg.toByteArray()));
      for (int b = 0; b < idx.blockCount() - 1; b++) {
        assertEquals(BLOCK, idx.rawLength(b));
      }
    }
    assertEquals(0, res.budget().used, "all memory given back");
  }

  @Test
  void heldMemoryIsTheRawBuffersAndOneFrameWhateverTheOutputSize(@TempDir Path dir)
      throws Exception {
    // 50 partitions, about 360 full blocks each: the frames never stay in memory.
    for (int records : new int[] {6_000, 60_000, 600_000}) {
      Result res = run(50, records, 1L << 30, dir);
      assertEquals(0, res.spills(), "no memory pressure");
      assertSameBytes(res);
      long working;
      try (BlockEncoder enc = new BlockEncoder(zlib())) {
        working = BufferSizes.workingMemory(enc, BLOCK, 4096);
      }
      // The raw buffers (50 blocks' worth of chunks, pages rounding up by less than one), one frame
      // and the gather block.
      assertTrue(
          res.budget().peak <= 50L * BLOCK + RawChunks.MAX_PAGE + working,
          records + " records: held " + res.budget().peak + " bytes");
      assertEquals(0, res.budget().used);
      try (var files = Files.list(dir)) {
        assertEquals(0, files.count(), "frame file deleted on close");
      }
    }
  }

  @Test
  void onlyPartitionsGivenBytesHaveState(@TempDir Path dir) throws Exception {
    // Spark SQL's limit on partitions plus one, as in Spark's SPARK-48037 test, with two rows:
    // per-partition state made up front took about 190 bytes per partition (3 GiB here).
    int partitions = (1 << 24) + 1;
    Collected collected = new Collected();
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf = buffer(partitions, BLOCK, enc, dir)) {
      byte[] a = "first".getBytes();
      byte[] b = "last".getBytes();
      buf.append(7, a, 0, a.length);
      buf.append(partitions - 1, b, 0, b.length);
      buf.spill();
      buf.writeTo(collected);
      assertEquals(2, buf.counters().partitionsWritten());
    }
    assertEquals(Set.of(7, partitions - 1), collected.out.keySet());
    try (BlockDecoder d = new BlockDecoder(null)) {
      byte[] last = collected.out.get(partitions - 1).toByteArray();
      assertArrayEquals(
          "last".getBytes(), new SegmentInputStream(ByteBuffer.wrap(last), d).readAllBytes());
    }
  }

  @Test
  void framesThatFitInTheirMemoryNeverMakeAFile(@TempDir Path dir) throws Exception {
    Result res = run(50, 60_000, 1L << 30, 64L << 20, dir);
    assertEquals(0, res.files(), "a frame file was made");
    assertEquals(0, res.spills());
    assertSameBytes(res);
    assertEquals(0, res.budget().used, "all memory given back");
  }

  @Test
  void framePagesAddAtMostTheirSettingToTheHeldMemory(@TempDir Path dir) throws Exception {
    // Several MiB of frames and 2 MiB of pages: the pages fill, and the rest goes to the file.
    long frameMemory = 2L << 20;
    long withoutPages = run(50, 600_000, 1L << 30, 0, dir).budget().peak;
    Result res = run(50, 600_000, 1L << 30, frameMemory, dir);
    assertEquals(1, res.files());
    assertSameBytes(res);
    assertTrue(res.budget().peak > withoutPages, "no page was taken");
    assertTrue(
        res.budget().peak <= withoutPages + frameMemory,
        "held " + res.budget().peak + " bytes, " + withoutPages + " without pages");
    assertEquals(0, res.budget().used);
  }

  @Test
  void framesPastTheirMemoryGoToTheFile(@TempDir Path dir) throws Exception {
    // One page of 1 MiB for several MiB of frames: the rest lies in the file, past the page.
    Result res = run(50, 600_000, 1L << 30, 1L << 20, dir);
    assertEquals(1, res.files());
    assertSameBytes(res);
    assertEquals(0, res.budget().used);
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "frame file deleted on close");
    }
  }

  @Test
  void aSpillMovesTheFramesInMemoryToTheFile(@TempDir Path dir) throws Exception {
    // Pages take what the 4 MiB budget has until the raw buffers need it back: a spill moves the
    // pages to the file, and every later frame goes there.
    Result res = run(300, 600_000, 4L << 20, 64L << 20, dir);
    assertTrue(res.spills() > 0, "expected a spill");
    assertEquals(1, res.files());
    assertSameBytes(res);
    assertTrue(res.budget().peak <= 4L << 20);
    assertEquals(0, res.budget().used);
  }

  @Test
  void underSeverePressurePartialBlocksAreSealed(@TempDir Path dir) throws Exception {
    // 2,000 partitions and a budget far below 2,000 raw buffers.
    Result res = run(2000, 60_000, 1200 * 1024, dir);
    assertTrue(res.sealed() > 0, "expected sealed partial blocks");
    assertSameBytes(res);
    assertTrue(res.budget().peak <= 1200 * 1024);
    assertEquals(0, res.budget().used);
  }

  @Test
  void aBudgetTooSmallForOneFrameIsAClearError(@TempDir Path dir) throws Exception {
    try (BlockEncoder enc = new BlockEncoder(zlib())) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  new PartitionedBlockBuffer(
                      4,
                      BLOCK,
                      enc,
                      new LimitedBudget(1000),
                      () -> Files.createTempFile(dir, "s", "")));
      assertTrue(e.getMessage().contains("spark.shuffle.kae.blockSize"), e.getMessage());
    }
  }

  @Test
  void noMemoryAtAllAfterSpillingIsAClearError(@TempDir Path dir) throws Exception {
    try (BlockEncoder enc = new BlockEncoder(zlib())) {
      // The frame and gather buffers and not one page of raw buffers more.
      LimitedBudget budget = new LimitedBudget(BufferSizes.workingMemory(enc, BLOCK, 4096) + 100L);
      try (PartitionedBlockBuffer buf =
          new PartitionedBlockBuffer(
              4, BLOCK, enc, budget, () -> Files.createTempFile(dir, "s", ""))) {
        IOException e = assertThrows(IOException.class, () -> buf.append(0, new byte[10], 0, 10));
        assertTrue(e.getMessage().contains("spark.executor.memory"), e.getMessage());
      }
      assertEquals(0, budget.used);
    }
  }

  @Test
  void theFrameBufferIsAsLargeAsTheFramesMade(@TempDir Path dir) throws Exception {
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf = buffer(200, BLOCK, enc, dir)) {
      byte[] row = new byte[100];
      buf.append(3, row, 0, row.length);
      buf.append(7, row, 0, row.length);
      assertEquals(0, buf.frameCapacity(), "no frame before the first is made");
      buf.writeTo(new Collected());
      // A task with a few rows makes frames for them, not for a full block.
      assertEquals(enc.maxFrameLength(row.length), buf.frameCapacity());
    }
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf = buffer(4, BLOCK, enc, dir)) {
      byte[] block = new byte[BLOCK];
      buf.append(0, block, 0, 10);
      buf.append(1, block, 0, BLOCK);
      assertEquals(enc.maxFrameLength(BLOCK), buf.frameCapacity(), "a full block's frame, no more");
      Collected collected = new Collected();
      buf.writeTo(collected);
      assertEquals(enc.maxFrameLength(BLOCK), buf.frameCapacity(), "never shrinks");
    }
  }

  @Test
  void firstBuffersShrinkWhenPartitionsAreManyThousands() {
    assertEquals(4096, BufferSizes.firstBuffer(200, 4096));
    assertEquals(4096, BufferSizes.firstBuffer(2000, 4096));
    assertEquals(1024, BufferSizes.firstBuffer(5000, 4096));
    assertEquals(512, BufferSizes.firstBuffer(20000, 4096));
    assertEquals(512, BufferSizes.firstBuffer(1 << 20, 4096));
    // The setting is the most it starts at.
    assertEquals(1024, BufferSizes.firstBuffer(10, 1024));
    assertEquals(32768, BufferSizes.firstBuffer(200, 65536));
  }

  @Test
  void fullSizeRawBuffersAreMappedAndGivenBackToTheKernel(@TempDir Path dir) throws Exception {
    int block = 256 * 1024;
    long before = DirectMemory.mappedBytes();
    byte[] chunk = new byte[10_000];
    new Random(7).nextBytes(chunk);
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf = buffer(4, block, enc, dir)) {
      // The gather block is made for the first chain encoded: none here.
      long working = DirectMemory.mappedBytes();
      assertEquals(before, working);
      for (int i = 0; i < 100; i++) {
        buf.append(i % 4, chunk, 0, chunk.length);
      }
      // Each partition got about 250 KB: its chain of 4 KiB chunks moved to a direct buffer at
      // 64 KiB, which doubled to the block size; those came from the kernel (DirectMemory).
      assertEquals(4L * block, DirectMemory.mappedBytes() - working);
      buf.writeTo(new Collected());
      assertEquals(working, DirectMemory.mappedBytes(), "freed as each segment is written");
    }
    assertEquals(before, DirectMemory.mappedBytes());
  }

  @Test
  void largeBuffersStayWithinTheirBoundAndTheOutputIsTheSame(@TempDir Path dir) throws Exception {
    // 40 partitions filling at the same pace to about 300 KiB each: unbounded, all 40 hold up to a
    // full 256 KiB block at once (10 MiB); bounded at 2 MiB, the fullest ones' bytes are parked in
    // the frame file and read back when their block is full: the same frames, the same calls.
    Bounded unbounded = bounded(0, 40, 2560, dir);
    Bounded bounded = bounded(2L << 20, 40, 2560, dir);
    // Parked in memory pages instead of the file: the same again.
    Bounded inMemory = bounded(2L << 20, 40, 2560, 8L << 20, dir);
    assertTrue(inMemory.parked > 0, "expected parked bytes");
    assertSameBytes(inMemory.result);
    assertEquals(0, unbounded.parked);
    assertTrue(bounded.parked > 0, "expected parked bytes");
    assertTrue(unbounded.maxLarge > 8L << 20, "unbounded " + unbounded.maxLarge);
    assertTrue(bounded.maxLarge <= 2L << 20, "bounded " + bounded.maxLarge);
    // The large buffers, the 64 KiB gather block and the one-block assembly block are all mapped.
    assertTrue(
        bounded.maxMapped <= (2L << 20) + BufferSizes.SMALL_MOST + 256 * 1024,
        "mapped " + bounded.maxMapped);
    assertEquals(unbounded.result.codecCalls(), bounded.result.codecCalls());
    Map<Integer, ByteArrayOutputStream> before = unbounded.result.collected().out;
    Map<Integer, ByteArrayOutputStream> after = bounded.result.collected().out;
    assertEquals(before.keySet(), after.keySet());
    for (Map.Entry<Integer, ByteArrayOutputStream> e : before.entrySet()) {
      assertArrayEquals(
          e.getValue().toByteArray(),
          after.get(e.getKey()).toByteArray(),
          "partition " + e.getKey());
    }
    assertSameBytes(bounded.result);
  }

  @Test
  void parkedBytesReadBackLeaveSpaceTheNextWritesReuse(@TempDir Path dir) throws Exception {
    // 8 partitions of about 2.3 MiB, bounded at two 256 KiB blocks: most bytes are parked, many
    // times over the 2 MiB a block per partition comes to. The frame file holds the frames and at
    // most a block per partition of parked bytes; without reuse it would hold every parked byte.
    int partitions = 8;
    Bounded unbounded = bounded(0, partitions, 20_000, dir);
    Bounded bounded = bounded(512 * 1024, partitions, 20_000, dir);
    long blocks = partitions * 256L * 1024;
    assertTrue(bounded.parked > 4 * blocks, "parked " + bounded.parked);
    assertTrue(
        bounded.maxFile <= unbounded.maxFile + blocks,
        "frame file " + bounded.maxFile + ", frames alone " + unbounded.maxFile);
    assertEquals(unbounded.result.codecCalls(), bounded.result.codecCalls());
    assertSameBytes(bounded.result);
  }

  /** What {@link #bounded} saw; maxFile the frame file's longest. */
  private record Bounded(Result result, long parked, long maxLarge, long maxMapped, long maxFile) {}

  /**
   * {@code partitions} partitions of {@code records} 120-byte records each on average, written with
   * the large buffers bounded at {@code bound}.
   */
  private static Bounded bounded(long bound, int partitions, int records, Path dir)
      throws Exception {
    return bounded(bound, partitions, records, 0, dir);
  }

  /** {@link #bounded} with up to {@code frameMemory} bytes of frames and parked bytes in memory. */
  private static Bounded bounded(
      long bound, int partitions, int records, long frameMemory, Path dir) throws Exception {
    long mapped = DirectMemory.mappedBytes();
    Map<Integer, ByteArrayOutputStream> expected = new HashMap<>();
    Collected collected = new Collected();
    Random r = new Random(11);
    byte[] rec = new byte[120];
    long maxLarge = 0;
    long maxMapped = 0;
    long maxFile = 0;
    long calls;
    long parked;
    LimitedBudget budget = new LimitedBudget(1L << 30);
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf =
            new PartitionedBlockBuffer(
                partitions,
                256 * 1024,
                4096,
                bound,
                frameMemory,
                enc,
                budget,
                () -> Files.createTempFile(dir, "spill", ".frames"))) {
      for (int i = 0; i < partitions * records; i++) {
        int p = r.nextInt(partitions);
        r.nextBytes(rec);
        Arrays.fill(rec, 0, 100, (byte) ('a' + r.nextInt(4)));
        buf.append(p, rec, 0, rec.length);
        expected.computeIfAbsent(p, k -> new ByteArrayOutputStream()).write(rec);
        maxLarge = Math.max(maxLarge, buf.largeBytes());
        maxMapped = Math.max(maxMapped, DirectMemory.mappedBytes() - mapped);
        maxFile = Math.max(maxFile, buf.frameFileLength());
      }
      assertEquals(0, buf.counters().spillCount(), "the bound is not a spill");
      buf.writeTo(collected);
      assertEquals(0, buf.largeBytes());
      calls = enc.stats().codecCalls();
      parked = buf.counters().parkedBytes();
    }
    assertEquals(mapped, DirectMemory.mappedBytes());
    return new Bounded(
        new Result(collected, expected, calls, 0, 0, budget, 0),
        parked,
        maxLarge,
        maxMapped,
        maxFile);
  }

  @Test
  void aBoundUnderTwoBlocksIsRefused(@TempDir Path dir) throws Exception {
    try (BlockEncoder enc = new BlockEncoder(zlib())) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  new PartitionedBlockBuffer(
                      4,
                      BLOCK,
                      1024,
                      2L * BLOCK - 1,
                      0,
                      enc,
                      new LimitedBudget(1L << 30),
                      () -> Files.createTempFile(dir, "s", "")));
      assertTrue(e.getMessage().contains("two blocks"), e.getMessage());
    }
  }

  @Test
  void smallRawBuffersAreChunksOfAFewPages(@TempDir Path dir) throws Exception {
    // 20,000 partitions of about 200 bytes each: one 512-byte chunk each, in pages of just under
    // 1 MiB past the first few small ones, and no direct buffer.
    int partitions = 20_000;
    int first = BufferSizes.firstBuffer(partitions, 4096);
    assertEquals(512, first);
    LimitedBudget budget = new LimitedBudget(1L << 30);
    long mapped = DirectMemory.mappedBytes();
    Map<Integer, ByteArrayOutputStream> expected = new HashMap<>();
    Collected collected = new Collected();
    try (BlockEncoder enc = new BlockEncoder(zlib());
        PartitionedBlockBuffer buf =
            new PartitionedBlockBuffer(
                partitions,
                256 * 1024,
                first,
                0,
                0,
                enc,
                budget,
                () -> Files.createTempFile(dir, "spill", ".frames"))) {
      for (int i = 0; i < 200_000; i++) {
        byte[] rec = ("row-" + i + "-xxxxxxx;").getBytes();
        int p = (i * 7919) % partitions;
        buf.append(p, rec, 0, rec.length);
        expected.computeIfAbsent(p, k -> new ByteArrayOutputStream()).write(rec);
      }
      long raw = budget.used - BufferSizes.workingMemory(enc, 256 * 1024, first);
      // 20,000 chunks of 512 bytes, pages rounding up by less than one.
      assertTrue(raw >= partitions * 512L, "raw " + raw);
      assertTrue(raw <= partitions * 512L + RawChunks.MAX_PAGE, "raw " + raw);
      assertEquals(mapped, DirectMemory.mappedBytes());
      buf.writeTo(collected);
      assertEquals(BufferSizes.workingMemory(enc, 256 * 1024, first), budget.used);
    }
    assertEquals(0, budget.used);
    assertEquals(expected.keySet(), collected.out.keySet());
    try (BlockDecoder d = new BlockDecoder(null)) {
      for (Map.Entry<Integer, ByteArrayOutputStream> e : expected.entrySet()) {
        byte[] segment = collected.out.get(e.getKey()).toByteArray();
        assertArrayEquals(
            e.getValue().toByteArray(),
            new SegmentInputStream(ByteBuffer.wrap(segment), d).readAllBytes());
      }
    }
  }
}
