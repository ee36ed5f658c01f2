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
package io.github.kaeshuffle.codec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Shared test set-up: every backend, built exactly (no fallback), and test data. */
public final class TestCodecs {
  private TestCodecs() {}

  /** Where the build put the test libraries (native-codec/src/test/native/build-test-libs.sh). */
  public static Path nativeTestDir() {
    return Path.of(System.getProperty("kaeshuffle.test.nativeDir", "target/test-native"));
  }

  public static String testLib(String name) {
    Path p = nativeTestDir().resolve(name).toAbsolutePath();
    if (!Files.exists(p)) {
      throw new IllegalStateException(
          p
              + " is missing: run the tests through Maven, which builds"
              + " it in process-test-classes");
    }
    return p.toString();
  }

  /** Options for the kaezip backend served by the counting zlib stand-in. */
  public static CodecOptions kaezipStandIn() {
    return CodecOptions.builder()
        .codec(CodecKind.KAEZIP)
        .kaezipLibrary(testLib("libzstandin.so"))
        .kaezipSkipHardwareCheck(true)
        .build();
  }

  public static BlockCodec exact(String name) {
    return exact(CodecKind.of(name));
  }

  public static BlockCodec exact(CodecKind name) {
    try {
      CodecOptions o =
          name == CodecKind.KAEZIP ? kaezipStandIn() : CodecOptions.builder().codec(name).build();
      return Codecs.exact(o);
    } catch (CodecException e) {
      throw new AssertionError("backend " + name + " must be available on the test machine", e);
    }
  }

  /** Every concrete backend; all of them must be available where the tests run. */
  public static List<BlockCodec> all() {
    List<BlockCodec> out = new ArrayList<>();
    for (CodecKind name : CodecKind.values()) {
      if (name != CodecKind.AUTO) {
        out.add(exact(name));
      }
    }
    return out;
  }

  public static List<BlockCodec> deflateFamily() {
    List<BlockCodec> out = new ArrayList<>();
    for (BlockCodec c : all()) {
      if (c.format() == CodecFormat.DEFLATE) {
        out.add(c);
      }
    }
    return out;
  }

  /** Test data of a kind: text-like (compressible), random (incompressible) or a mix. */
  public static byte[] data(String kind, int size, long seed) {
    Random r = new Random(seed);
    byte[] b = new byte[size];
    switch (kind) {
      case "random":
        r.nextBytes(b);
        break;
      case "zeros":
        break;
      case "text":
        {
          String[] words = {
            "shuffle",
            "spark",
            "kunpeng",
            "block",
            "deflate",
            "a",
            "of",
            "the",
            "partition",
            "record",
            "42",
            "x"
          };
          int i = 0;
          while (i < size) {
            byte[] w =
                (words[(int) Math.min(words.length - 1, Math.abs(r.nextGaussian()) * 4)] + " ")
                    .getBytes();
            int n = Math.min(w.length, size - i);
            System.arraycopy(w, 0, b, i, n);
            i += n;
          }
          break;
        }
      default: // "mixed": runs of random and repeated bytes
        int i = 0;
        while (i < size) {
          int run = Math.min(size - i, 1 + r.nextInt(300));
          if (r.nextBoolean()) {
            for (int k = 0; k < run; k++) {
              b[i + k] = (byte) r.nextInt(256);
            }
          } else {
            java.util.Arrays.fill(b, i, i + run, (byte) r.nextInt(4));
          }
          i += run;
        }
    }
    return b;
  }
}
