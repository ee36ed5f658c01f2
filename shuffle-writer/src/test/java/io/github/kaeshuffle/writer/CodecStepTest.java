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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import org.junit.jupiter.api.Test;

/**
 * A step of {@code auto}'s ladder: the reference figures that rank the steps before they have run.
 * How the policy uses them is {@code CodecPolicyTest}'s.
 */
class CodecStepTest {

  private static CodecStep step(CodecKind kind, int level) throws CodecException {
    BlockCodec codec = Codecs.exact(CodecOptions.builder().codec(kind).level(level).build());
    return CodecStep.of(codec);
  }

  @Test
  void eachStepIsNamedByItsCodecAndLevel() throws CodecException {
    assertEquals("lz4 level 1", step(CodecKind.LZ4, 1).name());
    assertEquals("zstd level 3", step(CodecKind.ZSTD, 3).name());
  }

  @Test
  void theReferenceFiguresRankTheLadder() throws CodecException {
    CodecStep lz4 = step(CodecKind.LZ4, 1);
    CodecStep zstd1 = step(CodecKind.ZSTD, 1);
    CodecStep zstd3 = step(CodecKind.ZSTD, 3);
    CodecStep deflate = step(CodecKind.JAVA, 1);
    assertTrue(lz4.encodeNanosPerByte() < zstd1.encodeNanosPerByte(), "lz4 is the cheap step");
    assertTrue(zstd1.storedRatio() < lz4.storedRatio(), "zstd stores fewer bytes");
    assertTrue(zstd1.encodeNanosPerByte() < zstd3.encodeNanosPerByte(), "a level costs more");
    assertTrue(zstd3.storedRatio() < zstd1.storedRatio(), "and stores less");
    assertTrue(zstd1.encodeNanosPerByte() < deflate.encodeNanosPerByte(), "software deflate");
    for (CodecStep s : new CodecStep[] {lz4, zstd1, zstd3, deflate}) {
      assertTrue(s.storedRatio() <= 1 && s.decodeShare() < 1, s.toString());
    }
  }

  @Test
  void figuresOutsideTheirRangeAreRefusedWithTheStepsName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new CodecStep("zstd x", 0, 0.5, 0.3));
    assertTrue(e.getMessage().contains("zstd x"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new CodecStep("x", 1, 0, 0.3));
    assertThrows(IllegalArgumentException.class, () -> new CodecStep("x", 1, 1.01, 0.3));
    assertThrows(IllegalArgumentException.class, () -> new CodecStep("x", 1, 0.5, -0.1));
    assertThrows(IllegalArgumentException.class, () -> new CodecStep("x", Double.NaN, 0.5, 0));
    assertThrows(NullPointerException.class, () -> new CodecStep(null, 1, 0.5, 0));
  }
}
