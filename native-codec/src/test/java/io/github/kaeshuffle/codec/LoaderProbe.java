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

import java.util.Arrays;

/** Run in a child JVM by NativeLoaderTest: loads what it can and prints what it got. */
public final class LoaderProbe {
  private LoaderProbe() {}

  public static void main(String[] args) throws Exception {
    NativeLoader.Status status = NativeLoader.load();
    System.out.println("loaded=" + status.loaded());
    System.out.println("detail=" + status.detail());
    BlockCodec c = Codecs.select(CodecOptions.builder().codec(args[0]).build()).codec();
    System.out.println("codec=" + c.name());
    byte[] raw = TestCodecs.data("text", 100_000, 1);
    byte[] z = new byte[c.maxCompressedLength(raw.length)];
    byte[] back = new byte[raw.length];
    try (BlockCompressor comp = c.newCompressor();
        BlockDecompressor d = c.newDecompressor()) {
      int n = comp.compress(raw, 0, raw.length, z, 0, z.length);
      d.decompress(z, 0, n, back, 0, raw.length);
    }
    System.out.println("roundtrip=" + (Arrays.equals(raw, back) ? "ok" : "WRONG"));
  }
}
