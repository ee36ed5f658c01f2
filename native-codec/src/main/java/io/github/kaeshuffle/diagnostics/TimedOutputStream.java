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
package io.github.kaeshuffle.diagnostics;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Counts the time spent in the wrapped stream's writes, flushes and close: put around a disk
 * stream, it measures exactly the shuffle doctor's disk link, with nothing else (codec calls,
 * serialization) nested in it. Not thread-safe: one writer's thread.
 */
public final class TimedOutputStream extends FilterOutputStream {
  private long nanos;

  public TimedOutputStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    long t = System.nanoTime();
    try {
      out.write(b);
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    long t = System.nanoTime();
    try {
      out.write(b, off, len);
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public void flush() throws IOException {
    long t = System.nanoTime();
    try {
      out.flush();
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  @Override
  public void close() throws IOException {
    long t = System.nanoTime();
    try {
      out.close();
    } finally {
      nanos += System.nanoTime() - t;
    }
  }

  /** Nanoseconds spent in the wrapped stream so far. */
  public long nanos() {
    return nanos;
  }
}
