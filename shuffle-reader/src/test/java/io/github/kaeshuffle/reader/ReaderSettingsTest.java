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

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A decode window holds the window size in blocks, but never fewer than two (one decoded while the
 * other is read) nor more than 1,024, whatever the block size.
 */
class ReaderSettingsTest {
  private static ReaderSettings window(long bytes) {
    return new ReaderSettings(null, true, bytes, DecodeWindow.Kind.DIRECT, 1 << 20, 0, 0);
  }

  @Test
  void aWindowHoldsItsSizeInBlocks() {
    assertEquals(4, window(4L << 20).slots(1 << 20));
    assertEquals(16, window(4L << 20).slots(256 << 10));
  }

  @Test
  void aWindowSmallerThanTwoBlocksStillHasTwo() {
    assertEquals(2, window(1L << 20).slots(1 << 20));
    assertEquals(2, window(0).slots(256 << 10));
  }

  @Test
  void aWindowOfManySmallBlocksStopsAt1024() {
    assertEquals(1024, window(1L << 30).slots(16 << 10));
  }

  @Test
  void aBlockSizeOfZeroCountsAsOneByte() {
    assertEquals(1024, window(4L << 20).slots(0));
  }
}
