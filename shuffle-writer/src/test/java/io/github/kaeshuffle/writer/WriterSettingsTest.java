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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import org.junit.jupiter.api.Test;

/**
 * The writer's settings refuse what no writer could use (a block size outside the format's range, a
 * negative bound, no codec) with the value named; the short form's defaults are the simplest
 * memory. The settings' own checks against SparkConf are KaeShuffleConfSuite's.
 */
class WriterSettingsTest {
  private static final int BLOCK = 256 * 1024;

  private static BlockCodec lz4() throws Exception {
    return Codecs.exact(CodecOptions.builder().codec(CodecKind.LZ4).build());
  }

  private static WriterSettings with(BlockCodec codec, int block, long maxMemory, int streams) {
    return new WriterSettings(codec, block, maxMemory, 4096, 0, 0, false, streams, 0);
  }

  @Test
  void theShortFormHasNoBoundsOfItsOwnAndSparksStreamLimit() throws Exception {
    WriterSettings s = new WriterSettings(lz4(), BLOCK);
    assertEquals(BLOCK, s.blockSize());
    assertEquals(0, s.maxMemory());
    assertEquals(4096, s.initialBufferSize());
    assertEquals(0, s.largeBufferMemory());
    assertEquals(0, s.frameMemory());
    assertFalse(s.probeIncompressible());
    assertEquals(WriterSettings.DEFAULT_PARTITION_STREAMS, s.partitionStreams());
    assertEquals(0, s.hardwareMinBlock());
  }

  @Test
  void aBlockSizeOutsideTheFormatsRangeIsRefusedWithTheRange() throws Exception {
    BlockCodec codec = lz4();
    IllegalArgumentException small =
        assertThrows(IllegalArgumentException.class, () -> new WriterSettings(codec, 1024));
    assertEquals(
        "Block size 1024 is out of range: use 16384 (16 KiB) to 8388608 (8 MiB) bytes.",
        small.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new WriterSettings(codec, 16 << 20));
  }

  @Test
  void negativeBoundsAreRefusedByName() throws Exception {
    BlockCodec codec = lz4();
    assertEquals(
        "maxMemory cannot be negative: -1",
        assertThrows(IllegalArgumentException.class, () -> with(codec, BLOCK, -1, 200))
            .getMessage());
    assertEquals(
        "partitionStreams cannot be negative: -2",
        assertThrows(IllegalArgumentException.class, () -> with(codec, BLOCK, 0, -2)).getMessage());
  }

  @Test
  void aCodecIsRequired() {
    assertEquals(
        "codec",
        assertThrows(NullPointerException.class, () -> new WriterSettings(null, BLOCK))
            .getMessage());
  }
}
