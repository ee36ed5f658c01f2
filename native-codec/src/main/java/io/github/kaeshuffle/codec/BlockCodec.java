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
 * A block codec backend: compresses or decompresses one whole block per call. A {@code BlockCodec}
 * is thread-safe and cheap to share; the contexts it creates are not: each thread (or each owner)
 * creates its own {@link BlockCompressor} / {@link BlockDecompressor}, reuses it for every block
 * and closes it at the end.
 */
public interface BlockCodec {
  /** The backend's name as used in configuration: zlib, kaezip, libdeflate, java, lz4, zstd. */
  String name();

  CodecFormat format();

  /** The compression level contexts of this codec use. */
  int level();

  /** What serves this codec, for logs: library, version, path. */
  String description();

  /**
   * Whether a hardware engine serves this codec (KAEzip): its faults are then retried in software
   * for the block at hand ({@link Codecs#software}), never failing a task.
   */
  default boolean hardware() {
    return false;
  }

  /**
   * The most input one hardware request takes (KAEzip submits at most 1 MiB per request), so a call
   * on {@code n} bytes costs {@code ceil(n / hardwareRequestBytes())} requests; 0 for software
   * codecs.
   */
  default int hardwareRequestBytes() {
    return 0;
  }

  /** The largest compressed size of {@code rawLength} bytes; size destinations with it. */
  int maxCompressedLength(int rawLength);

  BlockCompressor newCompressor() throws CodecException;

  BlockDecompressor newDecompressor() throws CodecException;
}
