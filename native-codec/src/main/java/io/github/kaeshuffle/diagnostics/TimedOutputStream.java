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
