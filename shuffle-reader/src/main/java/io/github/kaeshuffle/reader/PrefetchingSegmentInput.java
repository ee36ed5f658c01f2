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

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.diagnostics.TaskWaits;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockSourceInputStream;
import io.github.kaeshuffle.format.BlockStats;
import io.github.kaeshuffle.format.Segment;
import io.github.kaeshuffle.format.SegmentIndex;
import io.github.kaeshuffle.pool.DecoderLender;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Reads the raw bytes of segments held in memory (mapped or fetched), decompressing ahead of the
 * reader: every segment's index was parsed first ({@link io.github.kaeshuffle.format.Segments}), so
 * every block's offset and size are known before anything is decompressed; then a background task
 * decodes the blocks, in order, into the free slots of a {@link DecodeWindow} while the caller (the
 * deserializer) reads filled slots. Memory is the window, whatever the segments' size.
 *
 * <p>A bad block fails the read at that block's position, after all good blocks before it were
 * served. {@link #close()} stops the background task, waits until it no longer touches the window
 * or the segments, and returns the window to its owner.
 */
public final class PrefetchingSegmentInput extends BlockSourceInputStream {
  /** One block to decode: where it lies in its segment and how long it is decoded. */
  private static final class Block {
    final ByteBuffer segment;
    final int offset;
    final int rawLength;

    Block(ByteBuffer segment, int offset, int rawLength) {
      this.segment = segment;
      this.offset = offset;
      this.rawLength = rawLength;
    }
  }

  /** What the producer hands over: a filled slot and its length, the end, or an error. */
  private static final class Filled {
    final int slot;
    final int length;
    final Throwable error;
    final boolean end;

    Filled(int slot, int length, Throwable error, boolean end) {
      this.slot = slot;
      this.length = length;
      this.error = error;
      this.end = end;
    }
  }

  private final List<Block> blocks = new ArrayList<>();
  private final DecodeWindow window;
  private final BlockingQueue<Integer> free;
  private final BlockingQueue<Filled> filled;
  private final CountDownLatch producerDone = new CountDownLatch(1);
  private final Future<?> producer;
  private final BlockStats decodeStats = new BlockStats();
  private final Consumer<PrefetchingSegmentInput> onClose;
  private int currentSlot = -1;
  private long waitNanos;
  private boolean eof;
  private boolean closed;

  /** The producer's failure, thrown again by every read after the first. */
  private IOException failure;

  /** Whether every block of {@code segments} fits one of {@code window}'s slots. */
  public static boolean fits(List<Segment> segments, DecodeWindow window) {
    for (Segment s : segments) {
      if (s.index().maxRawLength() > window.slotSize()) {
        return false;
      }
    }
    return true;
  }

  /**
   * @param segments one segment or several back to back, their indexes parsed; their bytes must
   *     stay valid until this stream is closed, and every block must {@link #fits fit} a slot
   * @param decoders lends the decoder the background task uses, and takes it back
   * @param onClose runs after close, once neither the window nor the segments are used any more
   *     (e.g. returns the window, collects the stats); gets this stream
   */
  public PrefetchingSegmentInput(
      List<Segment> segments,
      DecodeWindow window,
      DecoderLender decoders,
      ExecutorService executor,
      Consumer<PrefetchingSegmentInput> onClose) {
    if (!fits(segments, window)) {
      throw new IllegalArgumentException(
          "A block does not fit the window's "
              + window.slotSize()
              + "-byte slots: check fits() first.");
    }
    this.window = window;
    this.onClose = onClose;
    for (Segment segment : segments) {
      SegmentIndex idx = segment.index();
      for (int b = 0; b < idx.blockCount(); b++) {
        blocks.add(new Block(segment.bytes(), (int) idx.offset(b), idx.rawLength(b)));
      }
    }
    this.free = new ArrayBlockingQueue<>(window.slots());
    this.filled = new ArrayBlockingQueue<>(window.slots() + 1);
    for (int i = 0; i < window.slots(); i++) {
      free.add(i);
    }
    this.producer = executor.submit(() -> produce(decoders));
  }

  private void produce(DecoderLender decoders) {
    try {
      BlockDecoder decoder = decoders.borrow();
      try {
        for (Block b : blocks) {
          int slot = free.take();
          int length = decoder.decode(b.segment, b.offset, b.rawLength, window.slot(slot));
          filled.put(new Filled(slot, length, null, false));
        }
        filled.put(new Filled(-1, 0, null, true));
      } catch (InterruptedException e) {
        // close() stopped us.
      } catch (Throwable t) {
        filled.offer(new Filled(-1, 0, t, false));
      } finally {
        synchronized (decodeStats) {
          decodeStats.add(decoder.stats());
        }
        decoders.giveBack(decoder);
      }
    } finally {
      producerDone.countDown();
    }
  }

  @Override
  protected ByteBuffer nextBlock() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IOException("Stream closed");
    }
    if (eof) {
      return null;
    }
    if (currentSlot >= 0) {
      free.add(currentSlot);
      currentSlot = -1;
    }
    Filled f = filled.poll();
    if (f == null) {
      long t0 = System.nanoTime();
      try {
        f = filled.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for a decoded block");
      }
      long waited = System.nanoTime() - t0;
      waitNanos += waited;
      TaskWaits.add(waited);
    }
    if (f.error != null) {
      failure =
          f.error instanceof IOException
              ? (IOException) f.error
              : new IOException("Decompressing ahead failed: " + f.error, f.error);
      throw failure;
    }
    if (f.end) {
      eof = true;
      return null;
    }
    currentSlot = f.slot;
    return ByteBuffers.limit(window.slot(currentSlot), f.length);
  }

  /** Nanoseconds the reader waited for the decompressor. */
  public long waitNanos() {
    return waitNanos;
  }

  /** What the background decoder did (complete once the stream is closed). */
  public BlockStats decodeStats() {
    synchronized (decodeStats) {
      return decodeStats;
    }
  }

  public int blockCount() {
    return blocks.size();
  }

  /** Decoded blocks waiting for the reader: never more than the window's slots. */
  public int blocksReady() {
    return filled.size();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    producer.cancel(true);
    try {
      producerDone.await();
    } catch (InterruptedException e) {
      // Still wait: the window must not be reused while the producer writes into it.
      awaitUninterruptibly();
      Thread.currentThread().interrupt();
    } finally {
      // The window's memory may be freed after this: no read may touch it again.
      dropCurrent();
      onClose.accept(this);
    }
  }

  private void awaitUninterruptibly() {
    boolean done = false;
    while (!done) {
      try {
        producerDone.await();
        done = true;
      } catch (InterruptedException ignored) {
        // keep waiting
      }
    }
  }
}
