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

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

/**
 * What a user asks of the codec layer. Immutable; build with {@link #builder()}.
 *
 * @param codec the codec asked for
 * @param level compression level in the codec's range, or {@link #DEFAULT_LEVEL} for its default
 * @param kaezipLibrary path of KAEzip's zlib-compatible library
 * @param kaezipSkipHardwareCheck load {@code kaezipLibrary} without checking for the hardware (for
 *     tests with a stand-in library; never on hosts where KAEzip might abort)
 * @param libdeflateLibrary name or path of libdeflate for dlopen
 * @param systemRoot where {@code proc/} and {@code sys/} are read for hardware detection
 */
public final class CodecOptions {
  public static final int DEFAULT_LEVEL = -1;
  public static final String DEFAULT_KAEZIP_LIBRARY = "/usr/local/kaezip/lib/libz.so";
  public static final String DEFAULT_LIBDEFLATE_LIBRARY = "libdeflate.so.0";

  private final CodecKind codec;
  private final int level;
  private final String kaezipLibrary;
  private final boolean kaezipSkipHardwareCheck;
  private final String libdeflateLibrary;
  private final Path systemRoot;

  public CodecOptions(
      CodecKind codec,
      int level,
      String kaezipLibrary,
      boolean kaezipSkipHardwareCheck,
      String libdeflateLibrary,
      Path systemRoot) {
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(kaezipLibrary, "kaezipLibrary");
    Objects.requireNonNull(libdeflateLibrary, "libdeflateLibrary");
    Objects.requireNonNull(systemRoot, "systemRoot");
    if (level != DEFAULT_LEVEL) {
      codec.checkLevel(level);
    }
    this.codec = codec;
    this.level = level;
    this.kaezipLibrary = kaezipLibrary;
    this.kaezipSkipHardwareCheck = kaezipSkipHardwareCheck;
    this.libdeflateLibrary = libdeflateLibrary;
    this.systemRoot = systemRoot;
  }

  public CodecKind codec() {
    return codec;
  }

  public int level() {
    return level;
  }

  public String kaezipLibrary() {
    return kaezipLibrary;
  }

  public boolean kaezipSkipHardwareCheck() {
    return kaezipSkipHardwareCheck;
  }

  public String libdeflateLibrary() {
    return libdeflateLibrary;
  }

  public Path systemRoot() {
    return systemRoot;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .codec(codec)
        .level(level)
        .kaezipLibrary(kaezipLibrary)
        .kaezipSkipHardwareCheck(kaezipSkipHardwareCheck)
        .libdeflateLibrary(libdeflateLibrary)
        .systemRoot(systemRoot);
  }

  /** Builder with the defaults: codec auto, each codec's default level, standard paths. */
  public static final class Builder {
    private CodecKind codec = CodecKind.AUTO;
    private int level = DEFAULT_LEVEL;
    private String kaezipLibrary = DEFAULT_KAEZIP_LIBRARY;
    private boolean kaezipSkipHardwareCheck;
    private String libdeflateLibrary = DEFAULT_LIBDEFLATE_LIBRARY;
    private Path systemRoot = Paths.get("/");

    public Builder codec(CodecKind v) {
      codec = v;
      return this;
    }

    /** The codec by its configuration name ({@link CodecKind#of}). */
    public Builder codec(String name) {
      return codec(CodecKind.of(name));
    }

    public Builder level(int v) {
      level = v;
      return this;
    }

    public Builder kaezipLibrary(String v) {
      kaezipLibrary = v;
      return this;
    }

    public Builder kaezipSkipHardwareCheck(boolean v) {
      kaezipSkipHardwareCheck = v;
      return this;
    }

    public Builder libdeflateLibrary(String v) {
      libdeflateLibrary = v;
      return this;
    }

    public Builder systemRoot(Path v) {
      systemRoot = v;
      return this;
    }

    public CodecOptions build() {
      return new CodecOptions(
          codec, level, kaezipLibrary, kaezipSkipHardwareCheck, libdeflateLibrary, systemRoot);
    }
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof CodecOptions)) {
      return false;
    }
    CodecOptions o = (CodecOptions) other;
    return Objects.equals(codec, o.codec)
        && level == o.level
        && Objects.equals(kaezipLibrary, o.kaezipLibrary)
        && kaezipSkipHardwareCheck == o.kaezipSkipHardwareCheck
        && Objects.equals(libdeflateLibrary, o.libdeflateLibrary)
        && Objects.equals(systemRoot, o.systemRoot);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        codec, level, kaezipLibrary, kaezipSkipHardwareCheck, libdeflateLibrary, systemRoot);
  }

  @Override
  public String toString() {
    return "CodecOptions["
        + "codec="
        + codec
        + ", level="
        + level
        + ", kaezipLibrary="
        + kaezipLibrary
        + ", kaezipSkipHardwareCheck="
        + kaezipSkipHardwareCheck
        + ", libdeflateLibrary="
        + libdeflateLibrary
        + ", systemRoot="
        + systemRoot
        + "]";
  }
}
