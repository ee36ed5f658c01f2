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
package io.github.kaeshuffle.bench

import java.io.{FilterOutputStream, InputStream, OutputStream}
import java.util.concurrent.atomic.AtomicLong

import org.apache.spark.SparkConf
import org.apache.spark.io.CompressionCodec
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Spark's IO codec around another one (the class named by [[CountingCodec.Inner]]) that counts,
 * for this JVM, what Spark's serializers wrote into its streams (bytes and write calls) and what
 * the codec under it wrote out: one measure for every codec alike, Spark's own included. For the
 * IO benchmark in local mode, where every stream is in one JVM; never in the product jar.
 */
class CountingCodec(conf: SparkConf) extends CompressionCodec {
  private val inner = KaeSparkAccess.ioCodec(conf, conf.get(CountingCodec.Inner))

  override def compressedOutputStream(s: OutputStream): OutputStream = {
    val out = new CountingCodec.Counted(s, CountingCodec.written, new AtomicLong)
    new CountingCodec.Counted(
      inner.compressedOutputStream(out),
      CountingCodec.raw,
      CountingCodec.writes)
  }

  override def compressedInputStream(s: InputStream): InputStream = inner.compressedInputStream(s)
}

object CountingCodec {

  /** The codec counted: a class name. */
  val Inner = "kae.bench.countedCodec"

  private val raw = new AtomicLong
  private val written = new AtomicLong
  private val writes = new AtomicLong

  /** Bytes in, bytes out and the serializers' write calls, so far in this JVM. */
  case class Counts(raw: Long, written: Long, writes: Long) {
    def -(o: Counts): Counts = Counts(raw - o.raw, written - o.written, writes - o.writes)
  }

  def counts(): Counts = Counts(raw.get, written.get, writes.get)

  /** Passes every write on whole (FilterOutputStream would split arrays into single bytes). */
  private final class Counted(out: OutputStream, bytes: AtomicLong, calls: AtomicLong)
    extends FilterOutputStream(out) {
    override def write(b: Int): Unit = {
      calls.incrementAndGet()
      bytes.incrementAndGet()
      out.write(b)
    }

    override def write(b: Array[Byte], off: Int, len: Int): Unit = if (len > 0) {
      calls.incrementAndGet()
      bytes.addAndGet(len)
      out.write(b, off, len)
    }
  }
}
