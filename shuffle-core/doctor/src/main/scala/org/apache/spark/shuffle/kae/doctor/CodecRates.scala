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
package doctor

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.util.concurrent.ConcurrentHashMap

import scala.util.Random

import io.github.kaeshuffle.codec.{CodecOptions, Codecs}

/** How fast a codec runs on this machine, measured once per JVM on fixed reference data. */
private[spark] object CodecRates {

  /** Bytes compressed and decompressed per measure, in blocks of 256 KiB. */
  private val Size = 4 << 20
  private val Block = 256 << 10

  private val cache = new ConcurrentHashMap[CodecOptions, ReferenceRates]()

  /**
   * Reference data like typical shuffle records: a key, two words of a small vocabulary and a
   * count, as text, with a fixed seed.
   */
  private lazy val reference: Array[Byte] = {
    val r = new Random(20261122L)
    val words = Array.tabulate(512)(i => s"w${Integer.toString(i * 7919, 36)}")
    val sb = new java.lang.StringBuilder(Size + 64)
    while (sb.length < Size) {
      sb.append("key-").append(r.nextInt(50000)).append('\t')
        .append(words(r.nextInt(words.length))).append(' ')
        .append(words(r.nextInt(words.length))).append('\t')
        .append(r.nextInt(1000)).append('\n')
    }
    sb.toString.substring(0, Size).getBytes(StandardCharsets.US_ASCII)
  }

  /** The rates of the codec these options select (measured once per JVM). */
  def of(options: CodecOptions): ReferenceRates = cache.computeIfAbsent(options, o => measure(o))

  private def measure(options: CodecOptions): ReferenceRates = {
    val codec = Codecs.select(options).codec()
    val src = ByteBuffer.allocateDirect(Size)
    src.put(reference).flip()
    val bound = codec.maxCompressedLength(Block)
    val packed = ByteBuffer.allocateDirect((Size / Block) * bound)
    val lengths = new Array[Int](Size / Block)
    val out = ByteBuffer.allocateDirect(Block)
    val c = codec.newCompressor()
    val d = codec.newDecompressor()
    try {
      def compressAll(): Long = {
        val t0 = System.nanoTime()
        for (i <- lengths.indices) {
          val in = src.duplicate()
          in.position(i * Block).limit((i + 1) * Block)
          val dst = packed.duplicate()
          dst.position(i * bound).limit((i + 1) * bound)
          lengths(i) = c.compress(in, dst)
        }
        System.nanoTime() - t0
      }
      def decompressAll(): Long = {
        val t0 = System.nanoTime()
        for (i <- lengths.indices) {
          val in = packed.duplicate()
          in.position(i * bound).limit(i * bound + lengths(i))
          out.clear()
          d.decompress(in, out, Block)
        }
        System.nanoTime() - t0
      }
      compressAll() // warm-up: JIT, the library's first calls
      decompressAll()
      ReferenceRates(
        s"${codec.name()} level ${codec.level()}",
        Size,
        lengths.map(_.toLong).sum,
        compressAll(),
        decompressAll())
    } finally {
      c.close()
      d.close()
    }
  }
}
