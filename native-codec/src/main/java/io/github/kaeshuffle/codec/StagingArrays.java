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

/**
 * Arrays a codec context keeps for APIs that take {@code byte[]} only, or arrays and direct buffers
 * but not a mix of the two (zstd-jni, {@link java.util.zip.Deflater} on Java 8): a direct buffer's
 * bytes are copied into the input array, or the output is made in the output array and copied out.
 * Reused from call to call, so a context allocates once per block size instead of once per block:
 * the writer compresses from direct blocks into heap frames, and an array per call was a block's
 * worth of garbage for each. Each grows to the largest block its context met and lives as long as
 * the context (contexts are pooled per executor). Not thread-safe: one context's.
 */
final class StagingArrays {
  private byte[] in = new byte[0];
  private byte[] out = new byte[0];

  /**
   * The bytes {@code [offset, offset + length)} of a byte[] or direct buffer target as an array:
   * the target itself when it is one (same offsets), else the input array holding them from 0.
   */
  byte[] input(Object target, int offset, int length) {
    if (target instanceof byte[]) {
      return (byte[]) target;
    }
    if (in.length < length) {
      in = new byte[length];
    }
    BufferArgument.view(target, offset, length).get(in, 0, length);
    return in;
  }

  /** The output array, of at least {@code length} bytes; its contents are not kept. */
  byte[] output(int length) {
    if (out.length < length) {
      out = new byte[length];
    }
    return out;
  }

  /** Bytes the arrays hold: for tests. */
  long bytes() {
    return (long) in.length + out.length;
  }
}
