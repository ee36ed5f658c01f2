package io.github.kaeshuffle.codec;

/**
 * Reads the call counters of the zlib stand-in library (src/test/native/zlib_standin.c). Loading
 * it here with System.load and through dlopen in the kaezip backend gives the same loaded object,
 * so these counters see every call the backend makes.
 */
final class StandInZlib {
  static {
    System.load(TestCodecs.testLib("libzstandin.so"));
  }

  private StandInZlib() {}

  static native long deflateCalls();

  static native long deflateInitCalls();

  static native long deflateResetCalls();

  static native long inflateCalls();

  static native long inflateInitCalls();
}
