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

import io.github.kaeshuffle.codec.BlockCodec;
import java.util.Objects;

/**
 * One step of {@code auto}'s codec ladder, as {@link CodecPolicy} sees it: its name and the figures
 * it is estimated by until it has run here. A step's reference figures only rank the steps against
 * each other before they are measured; once a step has written blocks on this executor, its own
 * measurements replace them. The figures and where they come from are in docs/tuning.md ("How auto
 * chooses").
 *
 * @param name the codec and level, as logged
 * @param encodeNanosPerByte reference compression time per raw byte
 * @param storedRatio reference stored bytes per raw byte
 * @param decodeShare decompression time as a share of compression time (the reduce side's codec
 *     time, charged to the step's CPU cost because the same cores pay for it)
 */
public final class CodecStep {
  private final String name;
  private final double encodeNanosPerByte;
  private final double storedRatio;
  private final double decodeShare;

  public CodecStep(String name, double encodeNanosPerByte, double storedRatio, double decodeShare) {
    this.name = Objects.requireNonNull(name, "name");
    if (!(encodeNanosPerByte > 0 && storedRatio > 0 && storedRatio <= 1 && decodeShare >= 0)) {
      throw new IllegalArgumentException(
          "Codec step "
              + name
              + " needs positive figures and a stored ratio of at most 1, not "
              + encodeNanosPerByte
              + " ns/B, "
              + storedRatio
              + ", "
              + decodeShare
              + ".");
    }
    this.encodeNanosPerByte = encodeNanosPerByte;
    this.storedRatio = storedRatio;
    this.decodeShare = decodeShare;
  }

  /** The step of a codec: the reference figures of its kind and level. */
  public static CodecStep of(BlockCodec codec) {
    String name = codec.name() + " level " + codec.level();
    if (codec.hardware()) {
      // KAEzip: 7 GB/s per processor plus a request's latency, deflate's ratio; the CPU waits.
      return new CodecStep(name, 0.35, 0.54, 1.0);
    }
    switch (codec.name()) {
      case "lz4":
        return new CodecStep(name, 1.8, 0.78, 0.17);
      case "zstd":
        return codec.level() <= 1
            ? new CodecStep(name, 2.7, 0.51, 0.3)
            : new CodecStep(name, 1.3 * codec.level() + 1.4, 0.47, 0.25);
      default:
        // Software deflate: libdeflate's figures; zlib and java are slower still.
        return new CodecStep(name, 6.4, 0.50, 0.27);
    }
  }

  public String name() {
    return name;
  }

  double encodeNanosPerByte() {
    return encodeNanosPerByte;
  }

  double storedRatio() {
    return storedRatio;
  }

  double decodeShare() {
    return decodeShare;
  }

  @Override
  public String toString() {
    return name
        + " ("
        + encodeNanosPerByte
        + " ns/B, stores "
        + storedRatio
        + ", decode "
        + decodeShare
        + ")";
  }
}
