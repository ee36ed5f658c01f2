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
        backend + " " + operation + " failed: " + error + " (code " + code + "): "
            + error.description();
    return error.isDataError()
        ? new CorruptBlockException(message)
        : new CodecException(message);
  }
}
