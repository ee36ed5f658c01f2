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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses and creates block codecs. {@link #select} never fails for the deflate family: a backend
 * that cannot serve (no hardware, library missing or broken, native library not loaded) falls back
 * along {@link CodecKind#candidates()} (kaezip -> zlib -> java, libdeflate -> zlib -> java), and
 * the choice with its reason is logged once. {@link #exact} is the strict form for tests and
 * benchmarks.
 */
public final class Codecs {
  private static final Logger LOG = LoggerFactory.getLogger(Codecs.class);
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
  private static final Map<CodecFormat, BlockCodec> DECODERS = new EnumMap<>(CodecFormat.class);
  private static final Map<CodecFormat, BlockCodec> SOFTWARE = new EnumMap<>(CodecFormat.class);
  private static final Set<String> FAULT_LOGGED = ConcurrentHashMap.newKeySet();

  private Codecs() {}

  /** The codec chosen, what was asked, and why, as logged. */
  public static final class Selection {
    private final BlockCodec codec;
    private final CodecKind requested;
    private final String reason;

    public Selection(BlockCodec codec, CodecKind requested, String reason) {
      this.codec = codec;
      this.requested = requested;
      this.reason = reason;
    }

    public BlockCodec codec() {
      return codec;
    }

    public CodecKind requested() {
      return requested;
    }

    public String reason() {
      return reason;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Selection)) {
        return false;
      }
      Selection o = (Selection) other;
      return Objects.equals(codec, o.codec)
          && Objects.equals(requested, o.requested)
          && Objects.equals(reason, o.reason);
    }

    @Override
    public int hashCode() {
      return Objects.hash(codec, requested, reason);
    }

    @Override
    public String toString() {
      return "Selection["
          + "codec="
          + codec
          + ", requested="
          + requested
          + ", reason="
          + reason
          + "]";
    }
  }

  /** The requested codec, or the best fallback; logs the choice once. Fails only for lz4/zstd. */
  public static Selection select(CodecOptions o) throws CodecException {
    Selection s = choose(o);
    if (LOGGED.add(s.reason())) {
      boolean fellBack = o.codec() != CodecKind.AUTO && !o.codec().id().equals(s.codec().name());
      if (fellBack) {
        LOG.warn("KAE Shuffle codec fell back: {}", s.reason());
      } else {
        LOG.info("KAE Shuffle codec: {}", s.reason());
      }
    }
    return s;
  }

  private static Selection choose(CodecOptions o) throws CodecException {
    List<String> notes = new ArrayList<>();
    BlockCodec codec = null;
    if (!o.codec().fallsBack()) {
      codec = exact(o);
    } else {
      for (CodecKind kind : o.codec().candidates()) {
        codec = openOrNote(kind, o, notes);
        if (codec != null) {
          break;
        }
      }
    }
    String reason =
        "codec '"
            + o.codec()
            + "' -> "
            + codec.name()
            + " level "
            + codec.level()
            + " ["
            + codec.description()
            + "]"
            + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
    return new Selection(codec, o.codec(), reason);
  }

  /** The zstd levels above {@code auto}'s first step, for disks and links that are the bound. */
  private static final int[] STRONGER_LEVELS = {1, 3};

  /**
   * The codecs a writer may move between, cheapest first: for {@code auto} the codec {@link
   * #select} chooses, then zstd at {@link #STRONGER_LEVELS} (when zstd-jni is there); for a codec
   * asked for by name, that codec alone.
   */
  public static List<BlockCodec> ladder(CodecOptions o) throws CodecException {
    List<BlockCodec> ladder = new ArrayList<>();
    ladder.add(select(o).codec());
    if (o.codec() != CodecKind.AUTO) {
      return ladder;
    }
    for (int level : STRONGER_LEVELS) {
      List<String> notes = new ArrayList<>();
      BlockCodec zstd =
          openOrNote(
              CodecKind.ZSTD,
              CodecOptions.builder().codec(CodecKind.ZSTD).level(level).build(),
              notes);
      boolean first = zstd != null && ladder.get(0).name().equals(zstd.name());
      if (zstd != null && !(first && ladder.get(0).level() >= level)) {
        ladder.add(zstd);
      }
    }
    return ladder;
  }

  /** A candidate, or null with the reason noted: its backend, or its Java library, is missing. */
  private static BlockCodec openOrNote(CodecKind kind, CodecOptions o, List<String> notes)
      throws CodecException {
    try {
      return kind.open(o, notes);
    } catch (LinkageError e) {
      notes.add(kind.id() + " not used: its library is not on the class path (" + e + ")");
      return null;
    }
  }

  /** Exactly the requested codec ({@code auto} not allowed), or a CodecException saying why not. */
  public static BlockCodec exact(CodecOptions o) throws CodecException {
    if (o.codec() == CodecKind.AUTO) {
      throw new IllegalArgumentException("exact() needs a concrete codec, not 'auto'.");
    }
    List<String> notes = new ArrayList<>();
    BlockCodec codec;
    try {
      codec = o.codec().open(o, notes);
    } catch (LinkageError e) {
      throw new CodecException(
          "Codec '"
              + o.codec()
              + "' is not available: its library is not"
              + " on the class path ("
              + e
              + "). Spark ships lz4-java and zstd-jni; outside Spark add"
              + " them.",
          e);
    }
    if (codec == null) {
      throw new CodecException(
          "Codec '" + o.codec() + "' is not available: " + String.join("; ", notes));
    }
    return codec;
  }

  /**
   * The software codec that takes over a block when a hardware codec of {@code format} fails:
   * native zlib for deflate (java when the native library is missing). The same format, so readers
   * cannot tell. Chosen once; a hardware fault is logged once per process.
   */
  public static BlockCodec software(CodecFormat format, String what, CodecException fault)
      throws CodecException {
    if (FAULT_LOGGED.add(what)) {
      LOG.warn(
          "KAE Shuffle: the hardware codec failed to {} a block ({}); that block and any later"
              + " one that fails go to software, with the same format (logged once)",
          what,
          fault.toString());
    }
    return software(format);
  }

  /** The software codec of a format (native zlib for deflate, else java): chosen once. */
  public static BlockCodec software(CodecFormat format) throws CodecException {
    synchronized (SOFTWARE) {
      BlockCodec codec = SOFTWARE.get(format);
      if (codec == null) {
        CodecKind kind =
            format == CodecFormat.DEFLATE ? CodecKind.ZLIB : CodecKind.decoderOf(format);
        codec = choose(CodecOptions.builder().codec(kind).build()).codec();
        SOFTWARE.put(format, codec);
      }
      return codec;
    }
  }

  /** The codec used to read frames of a format when no reader codec of that format is given. */
  public static synchronized BlockCodec defaultDecoder(CodecFormat format) throws CodecException {
    BlockCodec codec = DECODERS.get(format);
    if (codec == null) {
      codec = choose(CodecOptions.builder().codec(CodecKind.decoderOf(format)).build()).codec();
      DECODERS.put(format, codec);
    }
    return codec;
  }
}
