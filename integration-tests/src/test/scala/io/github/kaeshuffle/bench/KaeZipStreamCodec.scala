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

import java.io.{IOException, InputStream, OutputStream}

import io.github.kaeshuffle.codec.KaeZipModel

import org.apache.spark.SparkConf
import org.apache.spark.io.CompressionCodec

/**
 * The published study's design, for the KAEzip model benchmark only (never in the product jar):
 * Spark's own shuffle with a codec *stream* around the serializer, where every write the
 * serializer makes is one deflate call into "KAEzip" (here the KAEzip cost model,
 * libkaezipmodel.so: each call with input is a hardware request, each stream a session) and
 * every read one inflate call. Level: `spark.io.compression.zlib.level` (default 1, as ours).
 *
 * Enable with `spark.io.compression.codec=io.github.kaeshuffle.bench.KaeZipStreamCodec`.
 */
class KaeZipStreamCodec(conf: SparkConf) extends CompressionCodec {
  private val level = conf.getInt("spark.io.compression.zlib.level", 1)

  override def compressedOutputStream(s: OutputStream): OutputStream =
    new KaeZipStreamCodec.Deflating(s, level)

  override def compressedInputStream(s: InputStream): InputStream =
    new KaeZipStreamCodec.Inflating(s)
}

object KaeZipStreamCodec {
  private val Finish = 4 // Z_FINISH
  private val NoFlush = 0

  private def produced(r: Long): Int = (r & ((1L << 30) - 1)).toInt
  private def consumed(r: Long): Int = ((r >>> 30) & ((1L << 30) - 1)).toInt
  private def ended(r: Long): Boolean = ((r >>> 60) & 1L) == 1L

  private def open(compress: Boolean, level: Int): Long = {
    val h = KaeZipModel.streamOpen(compress, level)
    if (h <= 0) throw new IOException(s"KAEzip model stream init failed: zlib error $h")
    h
  }

  private def check(r: Long): Long = {
    if (r < 0) throw new IOException(s"KAEzip model stream call failed: zlib error $r")
    r
  }

  /** One deflate call per write, as a codec stream under the serializer makes them. */
  final class Deflating(out: OutputStream, level: Int) extends OutputStream {
    private val handle = open(compress = true, level)
    private var buf = new Array[Byte](64 * 1024)
    private var closed = false

    override def write(b: Int): Unit = write(Array(b.toByte), 0, 1)

    override def write(b: Array[Byte], off: Int, len: Int): Unit = {
      var at = off
      var left = len
      // One call takes the whole write unless the output fills; then more calls, as zlib would.
      do {
        if (buf.length < left + left / 8 + 1024) buf = new Array[Byte](left + left / 8 + 1024)
        val r =
          check(KaeZipModel.streamCall(handle, true, b, at, left, buf, 0, buf.length, NoFlush))
        out.write(buf, 0, produced(r))
        at += consumed(r)
        left -= consumed(r)
      } while (left > 0)
    }

    override def flush(): Unit = out.flush()

    override def close(): Unit = if (!closed) {
      closed = true
      try {
        var done = false
        while (!done) {
          val r = check(KaeZipModel.streamCall(handle, true, buf, 0, 0, buf, 0, buf.length, Finish))
          out.write(buf, 0, produced(r))
          done = ended(r)
        }
        out.close()
      } finally KaeZipModel.streamClose(handle, true)
    }
  }

  /** One inflate call per read that needs bytes, reading the compressed stream 32 KiB at a time. */
  final class Inflating(in: InputStream) extends InputStream {
    private val handle = open(compress = false, 0)
    private val input = new Array[Byte](32 * 1024)
    private var inAt = 0
    private var inEnd = 0
    private var ended = false
    private var closed = false

    override def read(): Int = {
      val one = new Array[Byte](1)
      if (read(one, 0, 1) == 1) one(0) & 0xff else -1
    }

    override def read(b: Array[Byte], off: Int, len: Int): Int = {
      if (len == 0) return 0
      while (!ended) {
        if (inAt == inEnd) {
          val n = in.read(input, 0, input.length)
          if (n < 0) throw new IOException("KAEzip model stream: compressed input ended early")
          inAt = 0
          inEnd = n
        }
        val r = check(KaeZipModel.streamCall(
          handle,
          false,
          input,
          inAt,
          inEnd - inAt,
          b,
          off,
          len,
          NoFlush))
        inAt += consumed(r)
        ended = KaeZipStreamCodec.ended(r)
        if (produced(r) > 0) return produced(r)
      }
      -1
    }

    override def close(): Unit = if (!closed) {
      closed = true
      try in.close()
      finally KaeZipModel.streamClose(handle, false)
    }
  }
}
