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

import java.io.IOException;

/** A codec failed: the message names the backend and, for native failures, the error code. */
public class CodecException extends IOException {
  private static final long serialVersionUID = 1L;

  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }

  static CodecException ofNative(String backend, String operation, long code) {
    NativeError error = NativeError.of(code);
    String message =
        backend
            + " "
            + operation
            + " failed: "
            + error
            + " (code "
            + code
            + "): "
            + error.description();
    return error.isDataError() ? new CorruptBlockException(message) : new CodecException(message);
  }
}
