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
 * Reads the call counters of the zlib stand-in library (src/test/native/zlib_standin.c). Loading it
 * here with System.load and through dlopen in the kaezip backend gives the same loaded object, so
 * these counters see every call the backend makes.
 */
public final class StandInZlib {
  static {
    System.load(TestCodecs.testLib("libzstandin.so"));
  }

  private StandInZlib() {}

  public static native long deflateCalls();

  public static native long deflateInitCalls();

  public static native long deflateResetCalls();

  public static native long inflateCalls();

  public static native long inflateInitCalls();
}
