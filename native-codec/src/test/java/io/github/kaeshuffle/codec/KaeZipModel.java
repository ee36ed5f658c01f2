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
 * The KAEzip cost model (src/test/native/kaezip_model.c): a zlib-compatible library with KAEzip's
 * cost shape, for tests and benchmarks. Loading it here with System.load and through dlopen in the
 * kaezip backend gives the same loaded object, so these counters see every call the backend makes.
 */
public final class KaeZipModel {
  public static final int COMPRESS = 0;
  public static final int DECOMPRESS = 1;

  /** Counter numbers, in kaezip_model.c's order. */
  public static final int SESSIONS = 0;

  public static final int REQUESTS = 1;
  public static final int CALLS = 2;
  public static final int WAITS = 3;
  public static final int BYTES_IN = 4;
  public static final int BYTES_OUT = 5;
  public static final int WAIT_NANOS = 6;
  public static final int DEVICE_NANOS = 7;
  public static final int SOFTWARE_CPU_NANOS = 8;

  /** How much later than charged the model's sleeps woke up: an artifact of the model. */
  public static final int OVERSHOOT_NANOS = 9;

  /**
   * Wall time of the model's own zlib work: its CPU time plus any time the thread was descheduled
   * meanwhile (the artifact as a caller's clock sees it).
   */
  public static final int SOFTWARE_WALL_NANOS = 10;

  /** Wall time from entry to exit of every deflate/inflate call: what the caller's clock saw. */
  public static final int CALL_WALL_NANOS = 11;

  private static final String PATH = TestCodecs.testLib("libkaezipmodel.so");

  static {
    System.load(PATH);
  }

  private KaeZipModel() {}

  /** The library's path, for {@code spark.shuffle.kae.kaezip.libraryPath}. */
  public static String path() {
    return PATH;
  }

  /** Options for the kaezip backend served by the model (hardware check skipped). */
  public static CodecOptions options() {
    return CodecOptions.builder()
        .codec(CodecKind.KAEZIP)
        .kaezipLibrary(PATH)
        .kaezipSkipHardwareCheck(true)
        .build();
  }

  public static native long counter(int which, int direction);

  public static native long liveSessions();

  /**
   * Replaces the model's latency, set-up time (microseconds), contexts per direction, and makes
   * every {@code failEvery}-th call with input a hardware fault (0: none).
   */
  public static native void configure(
      long requestMicros, long setupMicros, long contexts, long failEvery);

  /** The defaults (50 us per request, 100 us set-up, 2 contexts, no faults, hardware bytes). */
  public static void defaults() {
    configure(50, 100, 2, 0);
    zlibBytes(false);
  }

  /**
   * Whether compress calls make zlib's own bytes (its buffering of small inputs, history across
   * calls) instead of the hardware's: each request compressed on its own, ending its own block.
   */
  public static void zlibBytes(boolean on) {
    zlibBytes0(on ? 1 : 0);
  }

  private static native void zlibBytes0(int on);

  /** Calls the model failed as a hardware fault. */
  public static native long faults();

  /**
   * A zlib stream through the model (a session), for the benchmark's study baseline: the handle, or
   * a negative zlib error.
   */
  public static native long streamOpen(boolean compress, int level);

  /**
   * One deflate or inflate call with {@code flush} (0 no flush, 4 finish): bytes produced in bits
   * 0-29, consumed in bits 30-59, stream end in bit 60; a negative zlib error.
   */
  public static native long streamCall(
      long handle,
      boolean compress,
      byte[] in,
      int off,
      int len,
      byte[] out,
      int outOff,
      int outLen,
      int flush);

  public static native void streamClose(long handle, boolean compress);

  /** deflateInit2_ asked for raw deflate; KAEzip answers Z_STREAM_ERROR (-2). */
  public static native int rawDeflateInit();
}
