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
 * The compressed format of a block, as recorded in its frame. Several backends share a format:
 * every deflate backend writes standard zlib streams, so a block any of them wrote is read by any
 * other. Ids are part of the on-disk format and never change.
 */
public enum CodecFormat {
  /** zlib format (RFC 1950): zlib, kaezip, libdeflate and java backends. */
  DEFLATE(1),
  /** LZ4 block format, as lz4-java writes it. */
  LZ4(2),
  /** Zstandard frame, as zstd-jni writes it. */
  ZSTD(3);

  private final int id;

  CodecFormat(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  /** The format with this id, or null when the id is unknown (a corrupt or newer frame). */
  public static CodecFormat ofId(int id) {
    for (CodecFormat f : values()) {
      if (f.id == id) {
        return f;
      }
    }
    return null;
  }
}
