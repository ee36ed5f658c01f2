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
package io.github.kaeshuffle.format;

import io.github.kaeshuffle.codec.BlockCodec;

/**
 * Running counts of what an encoder or decoder did; not thread-safe (one per owner). These feed the
 * shuffle metrics: bytes per codec call is {@code rawBytes / codecCalls}.
 */
public final class BlockStats {
  long blocks;
  long codecCalls;
  long rawBytes;
  long storedBytes;
  long storedRawBlocks;
  long probedRawBlocks;
  long codecNanos;
  long softwareBlocks;
  long smallSoftwareBlocks;
  long hardwareRequests;
  long overflowBlocks;
  long sessionsOpened;
  long sessionWaitNanos;

  public long blocks() {
    return blocks;
  }

  /**
   * Calls into the codec: one per block compressed or decompressed; none for stored-raw reads, nor
   * for blocks the probe stored raw.
   */
  public long codecCalls() {
    return codecCalls;
  }

  public long rawBytes() {
    return rawBytes;
  }

  /** Payload bytes after compression (frame headers not included). */
  public long storedBytes() {
    return storedBytes;
  }

  public long storedRawBlocks() {
    return storedRawBlocks;
  }

  /**
   * Of the stored-raw blocks, those the {@link IncompressibleProbe} judged incompressible, stored
   * without a codec call.
   */
  public long probedRawBlocks() {
    return probedRawBlocks;
  }

  public long codecNanos() {
    return codecNanos;
  }

  /**
   * Blocks under the hardware codec's minimum size, compressed in software by design (counted in
   * codec calls too).
   */
  public long smallSoftwareBlocks() {
    return smallSoftwareBlocks;
  }

  /** Blocks a hardware codec failed on, done in software instead (counted in codec calls too). */
  public long softwareBlocks() {
    return softwareBlocks;
  }

  /**
   * Requests submitted to a hardware engine: one per started {@link
   * io.github.kaeshuffle.codec.BlockCodec#hardwareRequestBytes()} of input per call, failed calls
   * included.
   */
  public long hardwareRequests() {
    return hardwareRequests;
  }

  /**
   * Blocks done in software because every hardware session of the process was busy (the pool's
   * bound and wait; counted in codec calls too).
   */
  public long overflowBlocks() {
    return overflowBlocks;
  }

  /** Hardware sessions opened for this owner (0 when it reused a pooled one, or for software). */
  public long sessionsOpened() {
    return sessionsOpened;
  }

  /** Time spent waiting for a busy pool to give a hardware session back. */
  public long sessionWaitNanos() {
    return sessionWaitNanos;
  }

  public void add(BlockStats other) {
    blocks += other.blocks;
    codecCalls += other.codecCalls;
    rawBytes += other.rawBytes;
    storedBytes += other.storedBytes;
    storedRawBlocks += other.storedRawBlocks;
    probedRawBlocks += other.probedRawBlocks;
    codecNanos += other.codecNanos;
    softwareBlocks += other.softwareBlocks;
    smallSoftwareBlocks += other.smallSoftwareBlocks;
    hardwareRequests += other.hardwareRequests;
    overflowBlocks += other.overflowBlocks;
    sessionsOpened += other.sessionsOpened;
    sessionWaitNanos += other.sessionWaitNanos;
  }

  /** Counts the hardware requests of one call of {@code codec} on {@code inputBytes}. */
  void countRequests(BlockCodec codec, long inputBytes) {
    int per = codec.hardwareRequestBytes();
    if (per > 0) {
      hardwareRequests += Math.max(1, (inputBytes + per - 1) / per);
    }
  }

  /** What a pool adds to an owner's counts when it lends it a context. */
  public void lent(boolean opened, long waitNanos) {
    sessionsOpened += opened ? 1 : 0;
    sessionWaitNanos += waitNanos;
  }

  /** Back to zero, for an owner that starts counting anew (a pooled decoder's next lease). */
  public void clear() {
    blocks = 0;
    codecCalls = 0;
    rawBytes = 0;
    storedBytes = 0;
    storedRawBlocks = 0;
    probedRawBlocks = 0;
    codecNanos = 0;
    softwareBlocks = 0;
    smallSoftwareBlocks = 0;
    hardwareRequests = 0;
    overflowBlocks = 0;
    sessionsOpened = 0;
    sessionWaitNanos = 0;
  }

  @Override
  public String toString() {
    return "blocks="
        + blocks
        + " codecCalls="
        + codecCalls
        + " rawBytes="
        + rawBytes
        + " storedBytes="
        + storedBytes
        + " storedRawBlocks="
        + storedRawBlocks
        + " probedRawBlocks="
        + probedRawBlocks
        + " codecMillis="
        + codecNanos / 1_000_000;
  }
}
