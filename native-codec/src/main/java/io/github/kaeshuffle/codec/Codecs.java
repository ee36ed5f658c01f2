package io.github.kaeshuffle.codec;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses and creates block codecs. {@link #select} never fails for the deflate family: a backend
 * that cannot serve (no hardware, library missing or broken, native library not loaded) falls back
 * along kaezip -> zlib -> java or libdeflate -> zlib -> java, and the choice with its reason is
 * logged once. {@link #exact} is the strict form for tests and benchmarks.
 */
public final class Codecs {
  public static final String AUTO = "auto";
  public static final String KAEZIP = "kaezip";
  public static final String LIBDEFLATE = "libdeflate";
  public static final String ZLIB = "zlib";
  public static final String JAVA = "java";
  public static final String LZ4 = "lz4";
  public static final String ZSTD = "zstd";
  /** Every name {@link CodecOptions#codec()} accepts. */
  public static final List<String> NAMES = List.of(AUTO, KAEZIP, LIBDEFLATE, ZLIB, JAVA, LZ4, ZSTD);

  private static final Logger LOG = LoggerFactory.getLogger(Codecs.class);
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();
  /** Native backends by kind and path, opened once per process (success or failure). */
  private static final Map<String, Opened> BACKENDS = new ConcurrentHashMap<>();
  private static final Map<CodecFormat, BlockCodec> DECODERS = new EnumMap<>(CodecFormat.class);

  private Codecs() {}

  /** The codec chosen, what was asked, and why, as logged. */
  public record Selection(BlockCodec codec, String requested, String reason) {}

  private record Opened(long handle, String error) {}

  /** Lowest and highest level a codec takes. */
  public static int[] levelRange(String codec) {
    switch (codec) {
      case LIBDEFLATE:
        return new int[] {1, 12};
      case ZSTD:
        return new int[] {1, 22};
      case LZ4:
        return new int[] {1, 1};
      default:
        return new int[] {1, 9};
    }
  }

  static void checkLevel(String codec, int level) {
    int[] r = levelRange(codec);
    if (level < r[0] || level > r[1]) {
      throw new IllegalArgumentException("Compression level " + level + " is out of range for"
          + " codec '" + codec + "': use " + r[0] + " to " + r[1] + ".");
    }
  }

  /** The level contexts get: the one asked for, or 1 (the fastest) by default. */
  private static int levelFor(CodecOptions o, String codec) {
    int level = o.level() == CodecOptions.DEFAULT_LEVEL ? 1 : o.level();
    return Math.min(level, levelRange(codec)[1]);
  }

  /** The requested codec, or the best fallback; logs the choice once. Fails only for lz4/zstd. */
  public static Selection select(CodecOptions o) throws CodecException {
    List<String> notes = new ArrayList<>();
    BlockCodec codec = null;
    switch (o.codec()) {
      case AUTO:
        codec = tryKaezip(o, notes);
        if (codec == null) {
          codec = tryLibdeflate(o, notes);
        }
        break;
      case KAEZIP:
        codec = tryKaezip(o, notes);
        break;
      case LIBDEFLATE:
        codec = tryLibdeflate(o, notes);
        break;
      case LZ4:
      case ZSTD:
        codec = exact(o);
        break;
      default:
        break;
    }
    if (codec == null && !JAVA.equals(o.codec())) {
      codec = tryZlib(o, notes);
    }
    if (codec == null) {
      codec = new JavaDeflateCodec(levelFor(o, JAVA));
    }
    String reason = "codec '" + o.codec() + "' -> " + codec.name() + " level " + codec.level()
        + " [" + codec.description() + "]"
        + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
    if (LOGGED.add(reason)) {
      boolean fellBack = !AUTO.equals(o.codec()) && !o.codec().equals(codec.name());
      if (fellBack) {
        LOG.warn("KAE Shuffle codec fell back: {}", reason);
      } else {
        LOG.info("KAE Shuffle codec: {}", reason);
      }
    }
    return new Selection(codec, o.codec(), reason);
  }

  /** Exactly the requested codec ({@code auto} not allowed), or a CodecException saying why not. */
  public static BlockCodec exact(CodecOptions o) throws CodecException {
    List<String> notes = new ArrayList<>();
    BlockCodec codec;
    try {
      switch (o.codec()) {
        case KAEZIP:
          codec = tryKaezip(o, notes);
          break;
        case LIBDEFLATE:
          codec = tryLibdeflate(o, notes);
          break;
        case ZLIB:
          codec = tryZlib(o, notes);
          break;
        case JAVA:
          codec = new JavaDeflateCodec(levelFor(o, JAVA));
          break;
        case LZ4:
          codec = new Lz4BlockCodec();
          break;
        case ZSTD:
          codec = new ZstdBlockCodec(levelFor(o, ZSTD));
          break;
        default:
          throw new IllegalArgumentException("exact() needs a concrete codec, not '" + o.codec()
              + "'.");
      }
    } catch (LinkageError e) {
      throw new CodecException("Codec '" + o.codec() + "' is not available: its library is not"
          + " on the class path (" + e + "). Spark ships lz4-java and zstd-jni; outside Spark add"
          + " them.", e);
    }
    if (codec == null) {
      throw new CodecException("Codec '" + o.codec() + "' is not available: "
          + String.join("; ", notes));
    }
    return codec;
  }

  /** The codec used to read frames of a format when no reader codec of that format is given. */
  public static synchronized BlockCodec defaultDecoder(CodecFormat format) throws CodecException {
    BlockCodec codec = DECODERS.get(format);
    if (codec == null) {
      CodecOptions.Builder b = CodecOptions.builder();
      switch (format) {
        case LZ4:
          codec = exact(b.codec(LZ4).build());
          break;
        case ZSTD:
          codec = exact(b.codec(ZSTD).build());
          break;
        default:
          codec = select(b.codec(LIBDEFLATE).build()).codec();
          break;
      }
      DECODERS.put(format, codec);
    }
    return codec;
  }

  private static BlockCodec tryKaezip(CodecOptions o, List<String> notes) {
    if (!o.kaezipSkipHardwareCheck()) {
      KaeZipDetector.Result hw = KaeZipDetector.detect(o.systemRoot(),
          System.getProperty("os.arch"));
      if (!hw.present()) {
        notes.add("KAEzip not used: " + hw.reason());
        return null;
      }
    }
    return openNative(KAEZIP, o.kaezipLibrary(), levelFor(o, KAEZIP), notes);
  }

  private static BlockCodec tryLibdeflate(CodecOptions o, List<String> notes) {
    return openNative(LIBDEFLATE, o.libdeflateLibrary(), levelFor(o, LIBDEFLATE), notes);
  }

  private static BlockCodec tryZlib(CodecOptions o, List<String> notes) {
    return openNative(ZLIB, null, levelFor(o, ZLIB), notes);
  }

  private static BlockCodec openNative(String name, String path, int level, List<String> notes) {
    NativeLoader.Status status = NativeLoader.load();
    if (!status.loaded()) {
      notes.add(name + " not used: native library not loaded (" + status.detail() + ")");
      return null;
    }
    String key = name.equals(LIBDEFLATE) ? "libdeflate:" + path : "zlib:" + path;
    Opened opened = BACKENDS.computeIfAbsent(key, k -> {
      long h = name.equals(LIBDEFLATE) ? NativeLib.openLibdeflate(path) : NativeLib.openZlib(path);
      return h > 0 ? new Opened(h, null)
          : new Opened(0, NativeError.of(h) + " (" + NativeLib.lastOpenError() + ")");
    });
    if (opened.error() != null) {
      notes.add(name + " not used: " + (path == null ? "system zlib" : path) + " failed to load: "
          + opened.error());
      return null;
    }
    return new NativeBlockCodec(name, opened.handle(), level);
  }
}
