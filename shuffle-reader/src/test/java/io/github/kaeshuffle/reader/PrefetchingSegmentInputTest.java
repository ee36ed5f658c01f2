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
package io.github.kaeshuffle.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.CorruptBlockException;
import io.github.kaeshuffle.diagnostics.TaskWaits;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.SegmentIndex;
import io.github.kaeshuffle.format.SegmentWriter;
import io.github.kaeshuffle.format.Segments;
import io.github.kaeshuffle.pool.DecoderLender;
import java.io.ByteArrayOutputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PrefetchingSegmentInputTest {
  private static final int BLOCK = 16 * 1024;
  private static final ExecutorService POOL =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "test-decompress");
            t.setDaemon(true);
            return t;
          });

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
  }

  private static BlockCodec zlib() throws Exception {
    return Codecs.exact(CodecOptions.builder().codec(CodecKind.ZLIB).build());
  }

  private static byte[] data(int size, long seed) {
    Random r = new Random(seed);
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (r.nextInt(8) + 'a');
    }
    return b;
  }

  /** Several segments back to back, as a batch fetch of contiguous partitions gives them. */
  private static byte[] segments(byte[]... parts) throws Exception {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    try (BlockEncoder enc = new BlockEncoder(zlib())) {
      for (byte[] p : parts) {
        all.write(SegmentWriter.encode(enc, BLOCK, p));
      }
    }
    return all.toByteArray();
  }

  private static PrefetchingSegmentInput open(
      byte[] bytes, DecodeWindow w, java.util.function.Consumer<PrefetchingSegmentInput> onClose)
      throws Exception {
    BlockCodec codec = zlib();
    return new PrefetchingSegmentInput(
        Segments.split(ByteBuffer.wrap(bytes)),
        w,
        DecoderLender.fresh(() -> new BlockDecoder(codec)),
        POOL,
        onClose);
  }

  /** Something the decompressor waits for before it has a decoder. */
  private interface Delay {
    void await() throws InterruptedException;
  }

  /** A stream whose decoder is lent only after {@code delay}: its reader waits meanwhile. */
  private static PrefetchingSegmentInput openAfter(byte[] seg, DecodeWindow w, Delay delay)
      throws Exception {
    BlockCodec codec = zlib();
    return new PrefetchingSegmentInput(
        Segments.split(ByteBuffer.wrap(seg)),
        w,
        DecoderLender.fresh(
            () -> {
              try {
                delay.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return new BlockDecoder(codec);
            }),
        POOL,
        x -> {});
  }

  @ParameterizedTest
  @EnumSource(DecodeWindow.Kind.class)
  void readsBackEverySegmentInOrder(DecodeWindow.Kind kind, @TempDir Path dir) throws Exception {
    byte[] a = data(10 * BLOCK + 5, 1);
    byte[] b = data(3, 2);
    byte[] c = data(BLOCK * 4, 3);
    byte[] expected = new byte[a.length + b.length + c.length];
    System.arraycopy(a, 0, expected, 0, a.length);
    System.arraycopy(b, 0, expected, a.length, b.length);
    System.arraycopy(c, 0, expected, a.length + b.length, c.length);
    AtomicBoolean returned = new AtomicBoolean();
    try (DecodeWindow w = DecodeWindow.allocate(kind, 3, BLOCK, dir)) {
      PrefetchingSegmentInput in = open(segments(a, b, c), w, x -> returned.set(true));
      assertEquals(11 + 1 + 4, in.blockCount());
      assertArrayEquals(expected, in.readAllBytes());
      in.close();
      assertTrue(returned.get());
      assertEquals(16, in.decodeStats().blocks());
      // The 5- and 3-byte tails do not shrink: stored raw, decoded without a codec call.
      assertEquals(2, in.decodeStats().storedRawBlocks());
      assertEquals(14, in.decodeStats().codecCalls());
    }
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "a mapped window's file is deleted on close");
    }
  }

  @Test
  void theDecompressorNeverRunsMoreThanTheWindowAhead(@TempDir Path dir) throws Exception {
    byte[] big = data(300 * BLOCK, 4);
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 4, BLOCK, dir);
        PrefetchingSegmentInput in = open(segments(big), w, x -> {})) {
      assertEquals(4L * BLOCK, w.bytes(), "memory is the window, not the segment");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (in.blocksReady() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      // The sleep is the test: given the time, a decompressor that ignored the window's bound
      // would decode past it; nothing to wait for when it keeps the bound.
      Thread.sleep(100);
      assertEquals(4, in.blocksReady(), "the decompressor ran past the window");
      byte[] first = new byte[BLOCK];
      assertEquals(BLOCK, in.readNBytes(first, 0, BLOCK));
      assertArrayEquals(Arrays.copyOf(big, BLOCK), first);
      assertTrue(in.blocksReady() <= 4);
    }
  }

  @Test
  void aCorruptBlockFailsAtItsPositionAndEveryReadAfter(@TempDir Path dir) throws Exception {
    byte[] raw = data(10 * BLOCK, 5);
    byte[] seg = segments(raw);
    SegmentIndex idx = SegmentIndex.parse(ByteBuffer.wrap(seg));
    seg[(int) idx.offset(5) + 30] ^= 0x10; // inside block 5's payload
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 3, BLOCK, dir);
        PrefetchingSegmentInput in = open(seg, w, x -> {})) {
      byte[] good = new byte[5 * BLOCK];
      assertEquals(5 * BLOCK, in.readNBytes(good, 0, good.length));
      assertArrayEquals(Arrays.copyOf(raw, 5 * BLOCK), good);
      assertThrows(CorruptBlockException.class, in::read);
      assertThrows(CorruptBlockException.class, in::read);
    }
  }

  @Test
  void aBadIndexFailsBeforeAnyByteIsRead(@TempDir Path dir) throws Exception {
    byte[] seg = segments(data(3 * BLOCK, 6));
    seg[seg.length - 20] ^= 1; // in the footer
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 2, BLOCK, dir)) {
      assertThrows(CorruptBlockException.class, () -> open(seg, w, x -> {}));
    }
  }

  @Test
  void closingWhileTheDecompressorWaitsStopsItBeforeTheWindowIsReturned(@TempDir Path dir)
      throws Exception {
    byte[] seg = segments(data(100 * BLOCK, 7));
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 2, BLOCK, dir)) {
      CountDownLatch returned = new CountDownLatch(1);
      PrefetchingSegmentInput in = open(seg, w, x -> returned.countDown());
      in.read(); // the producer is now blocked on the full window
      long t0 = System.nanoTime();
      in.close();
      assertTrue(returned.await(0, TimeUnit.SECONDS), "window returned on close");
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "close took too long");
      assertThrows(java.io.IOException.class, in::read);
    }
  }

  @Test
  void anInterruptedReaderGetsAnInterruptedIoException(@TempDir Path dir) throws Exception {
    byte[] seg = segments(data(4 * BLOCK, 8));
    CountDownLatch release = new CountDownLatch(1);
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 2, BLOCK, dir)) {
      // A decoder that is not ready until released keeps the reader waiting.
      PrefetchingSegmentInput in = openAfter(seg, w, release::await);
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread reader =
          new Thread(
              () -> {
                try {
                  in.read();
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      reader.start();
      // Interrupted once it waits for the decoder inside read().
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (reader.getState() != Thread.State.WAITING
          && reader.getState() != Thread.State.TIMED_WAITING
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      reader.interrupt();
      reader.join(5000);
      assertTrue(thrown.get() instanceof InterruptedIOException, String.valueOf(thrown.get()));
      release.countDown();
      in.close();
    }
  }

  @Test
  void waitingForTheDecompressorIsThisThreadsKnownWait(@TempDir Path dir) throws Exception {
    byte[] seg = segments(data(2 * BLOCK, 9));
    try (DecodeWindow w = DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 2, BLOCK, dir)) {
      // A decoder that takes 100 ms to lend keeps the reader waiting for the first block.
      PrefetchingSegmentInput in = openAfter(seg, w, () -> Thread.sleep(100));
      long before = TaskWaits.nanos();
      in.readAllBytes();
      in.close();
      assertTrue(in.waitNanos() >= TimeUnit.MILLISECONDS.toNanos(50), "waited " + in.waitNanos());
      assertEquals(in.waitNanos(), TaskWaits.nanos() - before);
    }
  }

  @Test
  void windowsNeedTwoSlots(@TempDir Path dir) {
    assertThrows(
        IllegalArgumentException.class,
        () -> DecodeWindow.allocate(DecodeWindow.Kind.DIRECT, 1, BLOCK, dir));
  }
}
