package org.apache.spark.shuffle.kae

import java.io.{FilterOutputStream, OutputStream}

import io.github.kaeshuffle.format.TaskLinks

/**
 * Where a map task's writer spent its time, besides the codec (in the block statistics): the
 * shuffle doctor's serialization and disk links. Zero when the doctor is off.
 *
 * @param serializeNanos serializing records into block buffers (estimated from sampled records)
 * @param diskNanos writing spills and the map output, committing it (exact, codec calls left out)
 */
private[spark] case class WriteTimes(serializeNanos: Long, diskNanos: Long)

private[spark] object WriteTimes {
  val None: WriteTimes = WriteTimes(0L, 0L)
}

/**
 * The doctor's serialization link of one writer: the time to serialize a record and append its
 * bytes to the block buffers, taken on one record in [[TaskLinks.SAMPLE_EVERY]] and scaled, less
 * the codec and disk time nested in it (a block filling up is compressed, a spill written). The
 * upstream's time (computing the records, which for a blocking operator all comes before the
 * first one) is not sampled: it stays in the stage's compute and other time.
 *
 * @param excluded running total of the exactly measured codec and disk nanoseconds
 */
private[kae] final class SerializeClock(excluded: () => Long) {
  private val sample = TaskLinks.sample(() => excluded())
  private var records = 0L

  /** Before serializing record number `records` (0-based, counted here). */
  def start(): Unit = if (TaskLinks.sampled(records)) sample.start()

  def stop(): Unit = {
    sample.stop()
    records += 1
  }

  def serializeNanos: Long = sample.estimate(records)
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
