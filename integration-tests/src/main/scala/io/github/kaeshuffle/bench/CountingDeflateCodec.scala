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
import java.util.zip.{Deflater, DeflaterOutputStream, Inflater, InflaterInputStream}

import org.apache.spark.SparkConf
import org.apache.spark.io.CompressionCodec

/**
 * The codec-level approach, for comparison only (never in the product jar): Spark's built-in
 * shuffle with a zlib *stream* codec wrapped around the serializer, as the published KAEzip-in-
 * Spark study did. Every write the serializer makes into the stream is one deflate call; the
 * counters (JVM-wide, so local mode sees all tasks) give calls and bytes per call.
 *
 * Enable with `spark.io.compression.codec=io.github.kaeshuffle.bench.CountingDeflateCodec`;
 * `spark.io.compression.zlib.level` sets the level (default 1).
 */
class CountingDeflateCodec(conf: SparkConf) extends CompressionCodec {
  private val level = conf.getInt("spark.io.compression.zlib.level", 1)

  override def compressedOutputStream(s: OutputStream): OutputStream = {
    // syncFlush off: a flush() from the serializer does not cut the deflate stream, the kinder
    // choice for the baseline.
    val deflate = new DeflaterOutputStream(s, new Deflater(level), 32 * 1024, false) {
      override def close(): Unit =
        try super.close()
        finally `def`.end()
    }
    new FilterOutputStream(deflate) {
      override def write(b: Int): Unit = {
        CountingDeflateCodec.count(1)
        deflate.write(b)
      }
      override def write(b: Array[Byte], off: Int, len: Int): Unit = {
        CountingDeflateCodec.count(len)
        deflate.write(b, off, len)
      }
    }
  }

  override def compressedInputStream(s: InputStream): InputStream = {
    val inflater = new Inflater()
    new InflaterInputStream(s, inflater, 32 * 1024) {
      override def close(): Unit =
        try super.close()
        finally inflater.end()
    }
  }
}

object CountingDeflateCodec {
  val calls = new AtomicLong
  val bytes = new AtomicLong

  private def count(n: Int): Unit = {
    calls.incrementAndGet()
    bytes.addAndGet(n)
  }

  def reset(): Unit = {
    calls.set(0)
    bytes.set(0)
  }
}
