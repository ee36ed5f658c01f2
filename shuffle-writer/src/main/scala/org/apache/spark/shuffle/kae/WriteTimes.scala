package org.apache.spark.shuffle.kae

import java.io.{FilterOutputStream, OutputStream}

/**
 * Where a map task's writer spent its time, besides the codec (in the block statistics): the
 * shuffle doctor's serialization and disk links. Zero when the doctor is off.
 *
 * @param serializeNanos serializing records into block buffers (estimated from sampled records:
 *     [[io.github.kaeshuffle.format.RecordSample]]; the upstream's time, which for a blocking
 *     operator all comes before the first record, is not in it)
 * @param diskNanos writing spills and the map output, committing it (exact, codec calls left out)
 */
private[spark] case class WriteTimes(serializeNanos: Long, diskNanos: Long)

private[spark] object WriteTimes {
  val None: WriteTimes = WriteTimes(0L, 0L)
}

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
