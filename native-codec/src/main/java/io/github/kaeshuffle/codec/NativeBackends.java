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

import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight;
import io.github.kaeshuffle.codec.kaezip.KaeZipReport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The deflate backends libkaeshuffle serves: KAEzip (a zlib-compatible library, only where the
 * engine is confirmed), libdeflate, the system zlib. Each library is opened once per process,
 * success or failure, and every codec of it shares the handle. Each method returns null when its
 * backend cannot serve, with the reason in {@code notes}.
 */
final class NativeBackends {
  private static final Map<String, Opened> OPENED = new ConcurrentHashMap<>();

  private static final class Opened {
    private final long handle;
    private final String error;

    Opened(long handle, String error) {
      this.handle = handle;
      this.error = error;
    }

    long handle() {
      return handle;
    }

    String error() {
      return error;
    }
  }

  private NativeBackends() {}

  static BlockCodec kaezip(CodecOptions o, int level, List<String> notes) {
    return kaezip(o, level, notes, KaeZipPreflight::logOnce);
  }

  /**
   * KAEzip only where this process's preflight saw the engine take a queue: the library falls back
   * to software inside itself (no device, a device this user may not open, no free queue), and a
   * codec named kaezip would then claim hardware requests it never made. Test stand-ins skip the
   * check; their requests are the cost model's.
   */
  static BlockCodec kaezip(
      CodecOptions o,
      int level,
      List<String> notes,
      Function<CodecOptions, KaeZipReport> preflight) {
    if (!o.kaezipSkipHardwareCheck()) {
      KaeZipReport hw = preflight.apply(o);
      if (!hw.hardwareInUse()) {
        notes.add("KAEzip not used (" + hw.verdict() + ")");
        return null;
      }
    }
    return open(CodecKind.KAEZIP, o.kaezipLibrary(), level, notes);
  }

  static BlockCodec libdeflate(String path, int level, List<String> notes) {
    return open(CodecKind.LIBDEFLATE, path, level, notes);
  }

  static BlockCodec zlib(int level, List<String> notes) {
    return open(CodecKind.ZLIB, null, level, notes);
  }

  private static BlockCodec open(CodecKind kind, String path, int level, List<String> notes) {
    NativeLoader.Status status = NativeLoader.load();
    if (!status.loaded()) {
      notes.add(kind + " not used: native library not loaded (" + status.detail() + ")");
      return null;
    }
    boolean libdeflate = kind == CodecKind.LIBDEFLATE;
    String key = (libdeflate ? "libdeflate:" : "zlib:") + path;
    Opened opened =
        OPENED.computeIfAbsent(
            key,
            k -> {
              long h = libdeflate ? NativeLib.openLibdeflate(path) : NativeLib.openZlib(path);
              return h > 0
                  ? new Opened(h, null)
                  : new Opened(0, NativeError.of(h) + " (" + NativeLib.lastOpenError() + ")");
            });
    if (opened.error() != null) {
      notes.add(
          kind
              + " not used: "
              + (path == null ? "system zlib" : path)
              + " failed to load: "
              + opened.error());
      return null;
    }
    return new NativeBlockCodec(kind.id(), opened.handle(), level);
  }
}
