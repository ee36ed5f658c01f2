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
 * The negative codes libkaeshuffle returns, with the same numbers as {@code kae_errors.h}. Numbers
 * are never reused or renumbered: a code seen in a log means the same thing in every version.
 */
public enum NativeError {
  ARG(-1, "an argument is out of range"),
  NOMEM(-2, "native memory allocation failed"),
  DST_TOO_SMALL(-3, "the compressed block did not fit in the destination"),
  CORRUPT(-4, "the input is not a valid compressed block"),
  LENGTH(-5, "the block decompresses to a length other than the expected one"),
  TRAILING(-6, "the input has bytes after the end of the compressed block"),
  LIB_OPEN(-7, "the codec library could not be opened"),
  LIB_SYMBOL(-8, "the codec library lacks a required symbol"),
  LIB_INIT(-9, "the codec library failed to initialise"),
  INTERNAL(-10, "the codec library returned an unexpected result"),
  STATE(-11, "the native handle is null, closed or of the wrong kind"),
  UNKNOWN(Integer.MIN_VALUE, "unknown native error");

  private final int code;
  private final String description;

  NativeError(int code, String description) {
    this.code = code;
    this.description = description;
  }

  public int code() {
    return code;
  }

  public String description() {
    return description;
  }

  /** True when the code says the input data is bad, as opposed to a misuse or a library fault. */
  public boolean isDataError() {
    return this == CORRUPT || this == LENGTH || this == TRAILING;
  }

  public static NativeError of(long code) {
    for (NativeError e : values()) {
      if (e.code == code) {
        return e;
      }
    }
    return UNKNOWN;
  }
}
