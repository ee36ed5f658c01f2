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
package io.github.kaeshuffle.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.KaeZipModel;
import io.github.kaeshuffle.codec.TestCodecs;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.BlockFormat;
import io.github.kaeshuffle.format.FrameHeader;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pools bound the hardware sessions of a process (the KAEzip cost model counts them): a borrower
 * beyond the bound waits for a session to come back, or works in software once its wait is over,
 * with frames any reader decodes. Counts only, never times.
 */
class SessionBoundTest {
  private static final int BLOCK = 64 * 1024;
  private static final byte[] RAW = TestCodecs.data("text", 3 * BLOCK, 11);

  @AfterEach
  void noSessionLeft() {
    KaeZipModel.defaults();
  }

  private static long sessions(int dir) {
    return KaeZipModel.counter(KaeZipModel.SESSIONS, dir);
  }

  private static ByteBuffer encodeAll(BlockEncoder e) throws Exception {
    ByteBuffer out = ByteBuffer.allocate(4 * e.maxFrameLength(BLOCK));
    for (int at = 0; at < RAW.length; at += BLOCK) {
      e.encode(ByteBuffer.wrap(RAW, at, BLOCK), out);
    }
    return out.flip();
  }

  private static byte[] decodeAll(BlockDecoder d, ByteBuffer frames) throws Exception {
    ByteBuffer dst = ByteBuffer.allocate(RAW.length);
    int at = 0;
    while (at < frames.limit()) {
      d.decode(frames, at, -1, dst);
      at += FrameHeader.parse(frames, at).storedLength() + BlockFormat.FRAME_HEADER_LENGTH;
    }
    return dst.array();
  }

  @Test
  void encodersBeyondTheBoundGoToSoftwareWhenNotWaiting() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    long sessions0 = sessions(KaeZipModel.COMPRESS);
    try (EncoderPool pool = new EncoderPool(model, false, 0, 4, new SessionBound(2, 0))) {
      BlockEncoder a = pool.borrow();
      BlockEncoder b = pool.borrow();
      BlockEncoder c = pool.borrow(); // both sessions lent: software, at once
      assertEquals(1, a.stats().sessionsOpened());
      assertEquals(0, c.stats().sessionsOpened(), "an overflow encoder opens no session");
      ByteBuffer frames = encodeAll(c);
      assertEquals(3, c.stats().overflowBlocks());
      assertEquals(0, c.stats().hardwareRequests());
      long requests0 = KaeZipModel.counter(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS);
      encodeAll(a);
      assertEquals(3, a.stats().hardwareRequests(), "one request per 64 KiB block");
      assertEquals(
          a.stats().hardwareRequests(),
          KaeZipModel.counter(KaeZipModel.REQUESTS, KaeZipModel.COMPRESS) - requests0,
          "the model counted the same requests");
      assertEquals(0, a.stats().overflowBlocks());
      try (BlockDecoder zlib = new BlockDecoder(TestCodecs.exact(CodecKind.ZLIB))) {
        assertArrayEquals(RAW, decodeAll(zlib, frames), "software frames read as any other");
      }
      pool.giveBack(a);
      pool.giveBack(b);
      pool.giveBack(c);
      BlockEncoder again = pool.borrow();
      assertEquals(0, again.stats().sessionsOpened(), "a returned session is reused");
      encodeAll(again);
      assertEquals(0, again.stats().overflowBlocks());
      pool.giveBack(again);
      assertEquals(2, pool.created());
    }
    assertEquals(2, sessions(KaeZipModel.COMPRESS) - sessions0, "the model saw two sessions");
    assertEquals(0, KaeZipModel.liveSessions());
  }

  @Test
  void aWaitingBorrowerGetsTheSessionGivenBack() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    AtomicReference<Thread> waiting = new AtomicReference<>();
    ExecutorService other =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "waiting-borrower");
              waiting.set(t);
              return t;
            });
    try (DecoderPool pool =
        new DecoderPool(model, 4, new SessionBound(1, TimeUnit.MINUTES.toNanos(5)))) {
      BlockDecoder held = pool.borrow();
      Future<BlockDecoder> waiter = other.submit(() -> pool.borrow());
      // Give the session back only once the borrower is parked in the pool's timed wait, so the
      // test sees a wait end with the session, not a borrow that came after the give-back.
      while (waiting.get() == null || waiting.get().getState() != Thread.State.TIMED_WAITING) {
        Thread.onSpinWait();
      }
      pool.giveBack(held);
      BlockDecoder got = waiter.get(5, TimeUnit.MINUTES);
      assertEquals(0, got.stats().overflowBlocks());
      assertEquals(0, got.stats().sessionsOpened(), "it got the session given back");
      ByteBuffer frames;
      try (BlockEncoder e = new BlockEncoder(model)) {
        frames = encodeAll(e);
      }
      assertArrayEquals(RAW, decodeAll(got, frames));
      assertEquals(3, got.stats().hardwareRequests());
      pool.giveBack(got);
      assertEquals(1, pool.created());
    } finally {
      other.shutdownNow();
    }
    assertEquals(0, KaeZipModel.liveSessions());
  }

  @Test
  void decodersBeyondTheBoundDecodeInSoftware() throws Exception {
    BlockCodec model = Codecs.exact(KaeZipModel.options());
    ByteBuffer frames;
    try (BlockEncoder e = new BlockEncoder(model)) {
      frames = encodeAll(e);
    }
    long sessions0 = sessions(KaeZipModel.DECOMPRESS);
    try (DecoderPool pool = new DecoderPool(model, 4, new SessionBound(1, 1_000_000))) {
      BlockDecoder hw = pool.borrow();
      BlockDecoder sw = pool.borrow(); // waited 1 ms, then software
      assertArrayEquals(RAW, decodeAll(hw, frames));
      assertArrayEquals(RAW, decodeAll(sw, frames));
      assertEquals(3, sw.stats().overflowBlocks());
      assertEquals(0, sw.stats().hardwareRequests());
      assertTrue(sw.stats().sessionWaitNanos() > 0, "it waited before going to software");
      pool.giveBack(hw);
      pool.giveBack(sw);
    }
    assertEquals(1, sessions(KaeZipModel.DECOMPRESS) - sessions0);
    assertEquals(0, KaeZipModel.liveSessions());
  }

  @Test
  void softwareCodecsAreNotBounded() throws Exception {
    BlockCodec zlib = TestCodecs.exact(CodecKind.ZLIB);
    try (EncoderPool pool = new EncoderPool(zlib, false, 0, 4, new SessionBound(1, 0))) {
      BlockEncoder a = pool.borrow();
      BlockEncoder b = pool.borrow();
      encodeAll(b);
      assertEquals(0, b.stats().overflowBlocks());
      assertEquals(0, b.stats().hardwareRequests());
      pool.giveBack(a);
      pool.giveBack(b);
      assertEquals(2, pool.created());
    }
  }
}
