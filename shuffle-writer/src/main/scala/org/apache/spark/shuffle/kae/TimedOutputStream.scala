package org.apache.spark.shuffle.kae

import java.io.{FilterOutputStream, OutputStream}

/** Adds the time spent in the wrapped stream's writes, flushes and close to `add`. */
private[kae] final class TimedOutputStream(out: OutputStream, add: Long => Unit)
    extends FilterOutputStream(out) {
  override def write(b: Int): Unit = {
    val t = System.nanoTime()
    try out.write(b) finally add(System.nanoTime() - t)
  }

  override def write(b: Array[Byte], off: Int, len: Int): Unit = {
    val t = System.nanoTime()
    try out.write(b, off, len) finally add(System.nanoTime() - t)
  }

  override def flush(): Unit = {
    val t = System.nanoTime()
    try out.flush() finally add(System.nanoTime() - t)
  }

  override def close(): Unit = {
    val t = System.nanoTime()
    try out.close() finally add(System.nanoTime() - t)
  }
}
