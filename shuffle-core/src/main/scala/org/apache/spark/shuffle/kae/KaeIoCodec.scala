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

import java.io.{InputStream, OutputStream}
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.{BlockCodec, CodecOptions, Codecs}
import io.github.kaeshuffle.format.{BlockDecoder, BlockEncoder, FrameBufferPool}
import io.github.kaeshuffle.format.{FrameInputStream, FrameOutputStream}
import io.github.kaeshuffle.pool.{DecoderPool, EncoderPool}
import io.github.kaeshuffle.writer.{CodecPolicy, CodecStep, DiskCost}

import org.apache.spark.SparkConf
import org.apache.spark.internal.Logging
import org.apache.spark.io.CompressionCodec

/**
 * Spark's IO codec with KAE Shuffle's blocks, for what Spark compresses outside our shuffle
 * (`spark.io.compression.codec=org.apache.spark.shuffle.kae.KaeIoCodec`): broadcasts, serialized
 * cached blocks (`spark.rdd.compress`), checkpoints, and Spark's own shuffle and spills where our
 * manager is off. Spark calls a codec stream for every write of its serializer; here the bytes are
 * collected into blocks of `spark.shuffle.kae.blockSize`, each compressed with one codec call into
 * a self-describing frame ([[FrameOutputStream]]), so a stream written with KAEzip reads back
 * anywhere with software zlib. The codec is `spark.shuffle.kae.codec`'s; `auto` takes its first
 * step (KAEzip where it serves, else lz4), as a stream has no stage whose bound could be measured,
 * except for the driver's streams (broadcasts) once the executors' reduce tasks have shown the
 * link to be slow ([[IoCodecLink]]): those start where a new shuffle's map tasks would.
 * Each open stream holds one block and one frame on the heap; the buffers and the native contexts
 * come from pools the JVM's streams share.
 */
class KaeIoCodec(conf: SparkConf) extends CompressionCodec {
  private val pools = KaeIoCodec.pools(conf)

  override def compressedOutputStream(s: OutputStream): OutputStream = pools.output(s)

  override def compressedInputStream(s: InputStream): InputStream = pools.input(s, false)

  /** For a file still being written (the History Server's in-progress event logs). */
  override def compressedContinuousInputStream(s: InputStream): InputStream =
    pools.input(s, true)
}

private[spark] object KaeIoCodec extends Logging {

  /**
   * The encoders and decoders of one codec ladder (one step unless `auto`) and block size, and
   * what their streams did.
   */
  final class Pools(ladder: Seq[BlockCodec], settings: KaeShuffleSettings) {
    private val cores = Runtime.getRuntime.availableProcessors()
    private val blockSize = settings.blockSize
    private val bound = settings.sessionBound(cores)
    private val encoders = ladder.map { codec =>
      val writing = settings.writerSettings(codec)
      new EncoderPool(
        codec,
        writing.probeIncompressible(),
        writing.hardwareMinBlock(),
        2 * cores,
        bound)
    }
    private val steps = java.util.Arrays.asList(ladder.map(CodecStep.of): _*)
    @volatile private var chosen = 0
    private val decoders = new DecoderPool(ladder.head, 2 * cores, bound)
    private val buffers = new FrameBufferPool(blockSize, 2 * cores)
    // Apart from the output's: an output stream's frame is as large as its encoder's bound.
    private val inputBuffers = new FrameBufferPool(blockSize, 2 * cores)
    val rawBytes = new AtomicLong
    val storedBytes = new AtomicLong
    val codecCalls = new AtomicLong
    val streams = new AtomicLong
    val inputStreams = new AtomicLong

    def output(s: OutputStream): OutputStream = {
      val pool = encoders(step())
      new FrameOutputStream(s, pool.borrow(), buffers, (e: BlockEncoder) => giveBack(pool, e))
    }

    /**
     * The step the next output stream uses: the first, unless this JVM knows a link price
     * ([[IoCodecLink]], the driver's) by which a stronger step is clearly cheaper, as a new
     * shuffle's start ([[CodecPolicy]] on no disk: a broadcast stays in memory). Logged on change.
     */
    private[kae] def step(): Int =
      if (steps.size == 1) 0
      else {
        val link = IoCodecLink.get
        val s = link.fold(0)(new CodecPolicy(steps, new DiskCost(), _).step())
        if (s != chosen) {
          chosen = s
          val why = link.fold("no link known") { l =>
            "the executors' reduce tasks waited %.2f ns per stored byte for the network"
              .formatLocal(java.util.Locale.ROOT, l.nanosPerByte())
          }
          logInfo(s"KAE IO codec: the driver's streams now use ${steps.get(s).name}: $why")
        }
        s
      }

    /** Output buffers made: at most the streams open at once, beyond those kept. */
    def buffersMade: Long = buffers.made()

    /** Input buffers made, the same way. */
    def inputBuffersMade: Long = inputBuffers.made()

    def input(s: InputStream, continuous: Boolean): InputStream = {
      inputStreams.incrementAndGet()
      new FrameInputStream(
        s,
        decoders.borrow(),
        inputBuffers,
        (d: BlockDecoder) => decoders.giveBack(d),
        continuous)
    }

    private def giveBack(pool: EncoderPool, e: BlockEncoder): Unit = {
      rawBytes.addAndGet(e.stats().rawBytes())
      storedBytes.addAndGet(e.stats().storedBytes())
      codecCalls.addAndGet(e.stats().codecCalls())
      streams.incrementAndGet()
      pool.giveBack(e)
    }
  }

  private val all = new ConcurrentHashMap[(CodecOptions, Int), Pools]()

  /** The pools for `conf`'s codec and block size, made on first use, then shared. */
  def pools(conf: SparkConf): Pools = {
    val settings = KaeShuffleSettings.read(conf)
    all.computeIfAbsent(
      (settings.codecOptions, settings.blockSize),
      _ => new Pools(Codecs.ladder(settings.codecOptions).asScala.toSeq, settings))
  }

  /**
   * What every pool's output streams wrote, the input streams opened and the buffers made for
   * each direction, summed: for tests.
   */
  case class Counts(
      rawBytes: Long,
      storedBytes: Long,
      codecCalls: Long,
      streams: Long,
      buffersMade: Long,
      inputStreams: Long,
      inputBuffersMade: Long)

  def counts(): Counts = {
    var c = Counts(0, 0, 0, 0, 0, 0, 0)
    all.values().forEach { p =>
      c = Counts(
        c.rawBytes + p.rawBytes.get,
        c.storedBytes + p.storedBytes.get,
        c.codecCalls + p.codecCalls.get,
        c.streams + p.streams.get,
        c.buffersMade + p.buffersMade,
        c.inputStreams + p.inputStreams.get,
        c.inputBuffersMade + p.inputBuffersMade
      )
    }
    c
  }
}
