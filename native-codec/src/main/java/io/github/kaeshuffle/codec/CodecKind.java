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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The codecs a user can ask for, each with its configuration name, the frame format it writes, its
 * level range and how it is opened. {@link Codecs#select} tries {@link #candidates()} in order;
 * {@link Codecs#exact} opens exactly one kind. The names are part of the configuration.
 */
public enum CodecKind {
  /**
   * The ladder {@link Codecs#ladder} builds: its first step is the cheapest that serves (KAEzip
   * hardware, else lz4, then the software deflate backends), its later ones zstd at levels 1 and 3;
   * the writer moves each shuffle between them by what bounds its map tasks. Readers decode every
   * format, so hosts and tasks that chose differently read each other's blocks.
   */
  AUTO("auto", CodecFormat.DEFLATE, 9) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      throw new IllegalArgumentException("'auto' is a choice among codecs, not one codec.");
    }
  },
  KAEZIP("kaezip", CodecFormat.DEFLATE, 9) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return NativeBackends.kaezip(o, levelFor(o.level()), notes);
    }
  },
  LIBDEFLATE("libdeflate", CodecFormat.DEFLATE, 12) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return NativeBackends.libdeflate(o.libdeflateLibrary(), levelFor(o.level()), notes);
    }
  },
  ZLIB("zlib", CodecFormat.DEFLATE, 9) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return NativeBackends.zlib(levelFor(o.level()), notes);
    }
  },
  JAVA("java", CodecFormat.DEFLATE, 9) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return new JavaDeflateCodec(levelFor(o.level()));
    }
  },
  LZ4("lz4", CodecFormat.LZ4, 1) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return new Lz4BlockCodec();
    }
  },
  ZSTD("zstd", CodecFormat.ZSTD, 22) {
    @Override
    BlockCodec open(CodecOptions o, List<String> notes) {
      return new ZstdBlockCodec(levelFor(o.level()));
    }
  };

  /** The level contexts get when none is asked for: 1, the fastest, for every codec. */
  public static final int DEFAULT_LEVEL = 1;

  private final String id;
  private final CodecFormat format;
  private final int maxLevel;

  CodecKind(String id, CodecFormat format, int maxLevel) {
    this.id = id;
    this.format = format;
    this.maxLevel = maxLevel;
  }

  /** The name in configuration and logs; {@link BlockCodec#name()} of the codec it opens. */
  public String id() {
    return id;
  }

  /** The format of the frames it writes (auto: deflate, whichever backend serves it). */
  public CodecFormat format() {
    return format;
  }

  public int minLevel() {
    return 1;
  }

  public int maxLevel() {
    return maxLevel;
  }

  /** Throws when {@code level} is outside this codec's range, saying what the range is. */
  public void checkLevel(int level) {
    if (level < minLevel() || level > maxLevel) {
      throw new IllegalArgumentException(
          "Compression level "
              + level
              + " is out of range for"
              + " codec '"
              + id
              + "': use "
              + minLevel()
              + " to "
              + maxLevel
              + ".");
    }
  }

  /** The level contexts of this kind get for a requested one ({@link CodecOptions#level}). */
  int levelFor(int requested) {
    int level = requested == CodecOptions.DEFAULT_LEVEL ? DEFAULT_LEVEL : requested;
    return Math.min(level, maxLevel);
  }

  /**
   * Opens this backend with the options, or returns null when it cannot serve here, with the reason
   * added to {@code notes}. A missing Java library shows as a LinkageError.
   */
  abstract BlockCodec open(CodecOptions o, List<String> notes) throws CodecException;

  /**
   * What {@link Codecs#select} tries, in order, when this kind is asked for: the deflate family
   * falls back to native zlib, then java (which always serves); lz4 and zstd asked for by name do
   * not fall back (their frames are another format), so select opens them exactly.
   */
  public List<CodecKind> candidates() {
    switch (this) {
      case AUTO:
        return Arrays.asList(KAEZIP, LZ4, ZSTD, LIBDEFLATE, ZLIB, JAVA);
      case KAEZIP:
      case LIBDEFLATE:
        return Arrays.asList(this, ZLIB, JAVA);
      case ZLIB:
        return Arrays.asList(ZLIB, JAVA);
      default:
        return Collections.singletonList(this);
    }
  }

  /** Whether asking for this kind may end on the KAEzip hardware ({@code kaezip}, {@code auto}). */
  public boolean mayUseHardware() {
    return candidates().contains(KAEZIP);
  }

  /** Whether select may choose another kind when this one cannot serve. */
  public boolean fallsBack() {
    return candidates().size() > 1;
  }

  /** The kind named {@code id} (any case), or an IllegalArgumentException listing the names. */
  public static CodecKind of(String id) {
    String wanted = id == null ? "" : id.toLowerCase(Locale.ROOT);
    for (CodecKind k : values()) {
      if (k.id.equals(wanted)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "Unknown codec '" + id + "': use one of " + String.join(", ", ids()) + ".");
  }

  /** Every name a user may give, in declaration order. */
  public static List<String> ids() {
    List<String> out = new ArrayList<>();
    for (CodecKind k : values()) {
      out.add(k.id);
    }
    return out;
  }

  /** The kind that reads frames of {@code format} when the reader has no codec of that format. */
  public static CodecKind decoderOf(CodecFormat format) {
    switch (format) {
      case LZ4:
        return LZ4;
      case ZSTD:
        return ZSTD;
      default:
        return LIBDEFLATE;
    }
  }

  @Override
  public String toString() {
    return id;
  }
}
