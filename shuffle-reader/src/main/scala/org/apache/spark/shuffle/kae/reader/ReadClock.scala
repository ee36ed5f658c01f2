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
package org.apache.spark.shuffle.kae
package reader

import java.io.{FilterInputStream, InputStream}

import io.github.kaeshuffle.diagnostics.{RecordSample, TaskWaits}

/**
 * The doctor's clock of one reader; every method but [[fetching]] passes its argument through
 * unchanged when the doctor is off. Task thread only.
 */
private[kae] final class ReadClock(doctor: Boolean) {
  private var fetchNanos = 0L
  private var decodeNanos = 0L
  private val deserialize =
    if (doctor) new RecordSample(() => fetchNanos + decodeNanos) else null

  private def addFetch(t0: Long): Unit = {
    val waited = System.nanoTime() - t0
    fetchNanos += waited
    TaskWaits.add(waited)
  }

  private def addDecode(t0: Long): Unit = decodeNanos += System.nanoTime() - t0

  /**
   * Times the fetcher's hasNext and next, one call per block, for the doctor and, always, as the
   * task's known waits ([[TaskWaits]]), which auto's codec choice must not blame on the disk.
   */
  def fetching[T](blocks: Iterator[T]): Iterator[T] = {
    new Iterator[T] {
      override def hasNext: Boolean = {
        val t = System.nanoTime()
        try blocks.hasNext
        finally addFetch(t)
      }

      override def next(): T = {
        val t = System.nanoTime()
        try blocks.next()
        finally addFetch(t)
      }
    }
  }

  /** Times the reads (and the close) of a decoded stream: one call per deserializer refill. */
  def decoding(in: InputStream): InputStream = if (!doctor) in
  else {
    new FilterInputStream(in) {
      override def read(): Int = {
        val t = System.nanoTime()
        try in.read()
        finally addDecode(t)
      }

      override def read(b: Array[Byte], off: Int, len: Int): Int = {
        val t = System.nanoTime()
        try in.read(b, off, len)
        finally addDecode(t)
      }

      override def skip(n: Long): Long = {
        val t = System.nanoTime()
        try in.skip(n)
        finally addDecode(t)
      }

      // Closing a stream decompressed ahead stops its decompressor and gives its window back.
      override def close(): Unit = {
        val t = System.nanoTime()
        try in.close()
        finally addDecode(t)
      }
    }
  }

  /**
   * Samples the records' hasNext and next, where the deserializer works; the fetching and
   * decoding nested in a sample are left out (they are timed exactly).
   */
  def deserializing[T](it: Iterator[T]): Iterator[T] = if (!doctor) it
  else {
    new Iterator[T] {
      override def hasNext: Boolean = {
        deserialize.begin()
        it.hasNext
      }

      override def next(): T = {
        val r = it.next()
        deserialize.end()
        r
      }
    }
  }

  def addTo(s: ReadSources): ReadSources = if (!doctor) s.copy(fetchNanos = fetchNanos)
  else
    s.copy(
      fetchNanos = fetchNanos,
      decodeNanos = decodeNanos,
      deserializeNanos = deserialize.estimate())
}
