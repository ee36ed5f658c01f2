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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.pool.EncoderPool;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LadderEncoders} alone, with real codecs: pools made on first use, encoders lent again, and
 * a shuffle whose tasks wait on a slow disk moving up the ladder for itself and for the shuffles
 * after it. The policy's choices themselves are {@code CodecPolicyTest}'s.
 */
class LadderEncodersTest {
  private static final int BLOCK = 256 * 1024;

  private static BlockCodec codec(CodecKind kind) throws Exception {
    return Codecs.exact(CodecOptions.builder().codec(kind).build());
  }

  /** Eight MiB of words: a map task's output that every codec shrinks. */
  private static final byte[] TEXT = text(8 << 20);

  private static byte[] text(int n) {
    String[] words = {"shuffle", "block", "partition", "executor", "spark", "frame", "kunpeng"};
    Random r = new Random(5);
    StringBuilder b = new StringBuilder(n + 16);
    while (b.length() < n) {
      b.append(words[r.nextInt(words.length)]).append(r.nextInt(1000)).append(' ');
    }
    return b.substring(0, n).getBytes(StandardCharsets.US_ASCII);
  }

  /** Encodes {@link #TEXT} block by block with the lease's encoder; returns the stored bytes. */
  private static long write(LadderEncoders.Lease lease) throws Exception {
    BlockEncoder e = lease.encoder();
    ByteBuffer frame = ByteBuffer.allocate(e.maxFrameLength(BLOCK));
    long stored = 0;
    for (int at = 0; at < TEXT.length; at += BLOCK) {
      frame.clear();
      stored += e.encode(ByteBuffer.wrap(TEXT, at, Math.min(BLOCK, TEXT.length - at)), frame);
    }
    return stored;
  }

  @Test
  void aLadderNeedsACodec() {
    assertThrows(IllegalArgumentException.class, () -> new LadderEncoders(List.of(), c -> null));
  }

  @Test
  void aStepsPoolIsMadeAtItsFirstBorrowAndItsEncodersGoRound() throws Exception {
    AtomicInteger pools = new AtomicInteger();
    try (LadderEncoders ladder =
        new LadderEncoders(
            List.of(codec(CodecKind.LZ4)),
            c -> {
              pools.incrementAndGet();
              return new EncoderPool(c, false, 0, 2);
            })) {
      assertEquals(0, pools.get());
      assertEquals(0, ladder.created());
      for (int task = 0; task < 5; task++) {
        LadderEncoders.Lease lease = ladder.borrow(1);
        write(lease);
        assertEquals(0, lease.strongerRawBytes(), "a ladder of one step has nothing stronger");
        ladder.giveBack(lease, 0);
      }
      assertEquals(1, pools.get());
      assertEquals(1, ladder.created(), "one task at a time: one encoder, lent again");
    }
  }

  @Test
  void aShuffleOnASlowDiskClimbsAndTheNextShuffleStartsWhereTheDiskPoints() throws Exception {
    List<BlockCodec> ladder = List.of(codec(CodecKind.LZ4), codec(CodecKind.ZSTD));
    try (LadderEncoders encoders =
        new LadderEncoders(ladder, c -> new EncoderPool(c, false, 0, 2))) {
      LadderEncoders.Lease first = encoders.borrow(1);
      long stored = write(first);
      assertEquals(0, first.strongerRawBytes(), "a new executor starts on the cheapest step");
      long[] lengths = {stored, 0};
      assertSame(lengths, first.lengthsAsFirstStep(lengths), "the first step's sizes as they are");
      // The Kunpeng node's disk per core: 5.9 MB/s, 170 ns for every byte stored.
      encoders.giveBack(first, stored * 170);

      LadderEncoders.Lease next = encoders.borrow(1);
      long storedNext = write(next);
      assertEquals(TEXT.length, next.strongerRawBytes(), "the shuffle moved to zstd");
      assertTrue(storedNext < stored, storedNext + " bytes stored against lz4's " + stored);
      encoders.giveBack(next, storedNext * 170);
      long[] asLz4 = next.lengthsAsFirstStep(new long[] {storedNext, 0});
      assertEquals(stored, asLz4[0], stored / 100.0, "zstd's sizes told as lz4 stored them");
      assertEquals(0, asLz4[1], "an empty partition stays empty");

      LadderEncoders.Lease other = encoders.borrow(2);
      write(other);
      assertTrue(other.strongerRawBytes() > 0, "a new shuffle starts where the disk points");
      encoders.giveBack(other, 0);
    }
    try (LadderEncoders fresh = new LadderEncoders(ladder, c -> new EncoderPool(c, false, 0, 2))) {
      LadderEncoders.Lease lease = fresh.borrow(1);
      write(lease);
      assertEquals(0, lease.strongerRawBytes(), "another executor knows nothing of that disk");
      fresh.giveBack(lease, 0);
    }
  }

  @Test
  void aNewShuffleStartsOnTheDisksBacklogAsTheKernelCountsItThen(@TempDir Path root)
      throws Exception {
    List<BlockCodec> ladder = List.of(codec(CodecKind.LZ4), codec(CodecKind.ZSTD));
    AtomicLong clock = new AtomicLong();
    FakeKernel.machine(root, 0, 0);
    // The Kunpeng node's disk per core, as the probe measured it: 5.9 MB/s.
    try (LadderEncoders encoders =
        new LadderEncoders(
            ladder,
            c -> new EncoderPool(c, false, 0, 2),
            new LinkCost(),
            DiskProbe.measured(5.9e6),
            new WritebackPressure(root, clock::get))) {
      LadderEncoders.Lease first = encoders.borrow(1);
      write(first);
      assertEquals(0, first.strongerRawBytes(), "nothing waits for the disk");
      encoders.giveBack(first, 0);

      // 1.2 GB written by something else: the disk 200 s behind before this shuffle's tasks wait.
      FakeKernel.machine(root, 1_200_000, 0);
      clock.addAndGet(1_000_000_000L);
      LadderEncoders.Lease next = encoders.borrow(2);
      write(next);
      assertEquals(TEXT.length, next.strongerRawBytes(), "the next shuffle starts on zstd");
      encoders.giveBack(next, 0);
    }
  }
}
