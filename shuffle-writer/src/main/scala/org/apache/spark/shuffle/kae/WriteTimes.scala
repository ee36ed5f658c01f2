package org.apache.spark.shuffle.kae

import java.io.{FilterOutputStream, OutputStream}

import io.github.kaeshuffle.format.{BlockEncoder, TaskLinks}

/**
 * Where a map task's writer spent its time, besides the codec (in the block statistics): the
 * shuffle doctor's serialization and disk links. Zero when the doctor is off.
 *
 * @param serializeNanos serializing records into block buffers (estimated from sampled records:
 *     the writer's time less the codec, the disk and the sampled upstream)
 * @param diskNanos writing spills and the map output, committing it (exact, codec calls left out)
 */
private[spark] case class WriteTimes(serializeNanos: Long, diskNanos: Long)

private[spark] object WriteTimes {
  val None: WriteTimes = WriteTimes(0L, 0L)
}

/**
 * Times one writer's record loop for the doctor: the loop's wall time, the codec's and the
 * disk's time within it (exact), and the upstream's (sampled) are taken out; what remains is
 * serialization. Task thread only.
 */
private[kae] final class LoopClock(links: TaskLinks, encoder: BlockEncoder) {
  private val upstream = links.sample()
  private var start = 0L
  private var read0 = 0L
  private var codec0 = 0L
  private var disk0 = 0L
  private var serialize = 0L
  private var records = 0L

  def begin(diskNanos: Long): Unit = {
    read0 = links.readNanos()
    codec0 = encoder.stats().codecNanos()
    disk0 = diskNanos
    start = System.nanoTime()
  }

  /** Around the upstream's hasNext/next of record number `record`. */
  def upstreamStart(record: Long): Unit = if (TaskLinks.sampled(record)) upstream.start()

  def upstreamStop(): Unit = upstream.stop()

  def end(diskNanos: Long, recordsInLoop: Long): Unit = {
    val elapsed = System.nanoTime() - start
    records += recordsInLoop
    serialize += elapsed - (links.readNanos() - read0) -
      (encoder.stats().codecNanos() - codec0) - (diskNanos - disk0)
  }

  /** Serialization time of every loop so far: the rest less the scaled upstream samples. */
  def serializeNanos: Long = math.max(0L, serialize - upstream.estimate(records))
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
