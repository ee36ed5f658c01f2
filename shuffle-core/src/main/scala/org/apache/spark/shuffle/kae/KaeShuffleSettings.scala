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

import java.util.Locale
import java.util.concurrent.TimeUnit

import io.github.kaeshuffle.codec.{BlockCodec, CodecFormat, CodecOptions}
import io.github.kaeshuffle.pool.SessionBound
import io.github.kaeshuffle.reader.{DecodeWindow, ReaderSettings}
import io.github.kaeshuffle.writer.WriterSettings

import org.apache.spark.SparkConf
import org.apache.spark.internal.config
import org.apache.spark.internal.config.ConfigEntry
import org.apache.spark.shuffle.kae.doctor.EngineModel

/**
 * Every `spark.shuffle.kae.*` setting, read from SparkConf and checked once, here: the config
 * entries ([[KaeShuffleConf]]) check each value on its own, [[KaeShuffleSettings.read]] the values
 * that depend on each other, naming the keys. Writers, readers and the codec layer get typed
 * settings and never read SparkConf.
 *
 * @param probeIncompressible true/false as set; None for `auto` (on for the software deflate
 *     codecs)
 */
private[spark] case class KaeShuffleSettings(
    enabled: Boolean,
    codecOptions: CodecOptions,
    blockSize: Int,
    writerMaxMemory: Long,
    writerInitialBuffer: Int,
    writerLargeBufferMemory: Long,
    writerFrameMemory: Long,
    probeIncompressible: Option[Boolean],
    partitionStreams: Int,
    hardwareMinBlock: Int,
    kaezipMaxSessions: Option[Int],
    kaezipSessionWaitMs: Long,
    prefetch: Boolean,
    windowSize: Long,
    windowKind: DecodeWindow.Kind,
    maxInMemoryFetch: Long,
    localReadLimit: Int,
    stageSummary: Boolean,
    ui: Boolean,
    doctor: Boolean,
    engine: EngineModel) {

  /** The map side's settings with the codec this JVM chose. */
  def writerSettings(codec: BlockCodec): WriterSettings = new WriterSettings(
    codec,
    blockSize,
    writerMaxMemory,
    writerInitialBuffer,
    writerLargeBufferMemory,
    writerFrameMemory,
    probeIncompressible.getOrElse(probesByDefault(codec)),
    partitionStreams,
    hardwareMinBlock
  )

  /**
   * `auto` probes the software deflate codecs only. Software deflate spends far longer on an
   * incompressible block than a probe does, so the probe pays for itself at once. A hardware
   * engine takes such a block at its usual rate in one request, and the probe would cost its time
   * on every block to save that on the few that do not shrink: it was a large part of our own
   * time per compress call on the KAEzip cost model (docs/benchmarks/kaezip-model/README.md, our
   * layer's time per call). lz4 and zstd pass over such bytes quickly.
   */
  private def probesByDefault(codec: BlockCodec): Boolean =
    codec.format() == CodecFormat.DEFLATE && !codec.hardware()

  /**
   * How many hardware sessions the executor's pools may hold, per direction, and how long a task
   * waits for one; by default twice the executor's task slots.
   */
  def sessionBound(taskSlots: Int): SessionBound = new SessionBound(
    kaezipMaxSessions.getOrElse(2 * math.max(1, taskSlots)),
    TimeUnit.MILLISECONDS.toNanos(kaezipSessionWaitMs))

  /** The reduce side's settings with the codec this JVM chose. */
  def readerSettings(codec: BlockCodec): ReaderSettings =
    new ReaderSettings(
      codec,
      prefetch,
      windowSize,
      windowKind,
      blockSize,
      maxInMemoryFetch,
      localReadLimit)
}

private[spark] object KaeShuffleSettings {
  import KaeShuffleConf._

  def read(conf: SparkConf): KaeShuffleSettings = {
    all.foreach(parses(conf, _))
    val blockSize = conf.get(BLOCK_SIZE).toInt
    val initialBuffer = conf.get(WRITER_INITIAL_BUFFER)
    if (initialBuffer > blockSize) {
      throw new IllegalArgumentException(s"'$initialBuffer' in ${WRITER_INITIAL_BUFFER.key} is " +
        s"invalid. It cannot exceed ${BLOCK_SIZE.key} ($blockSize bytes).")
    }
    val largeBuffers = conf.get(WRITER_LARGE_BUFFER_MEMORY)
    if (largeBuffers != 0 && largeBuffers < 2L * blockSize) {
      throw new IllegalArgumentException(s"'${conf.get(WRITER_LARGE_BUFFER_MEMORY.key, "")}' in " +
        s"${WRITER_LARGE_BUFFER_MEMORY.key} is invalid. Use 0 (no bound) or at least two blocks " +
        s"of ${BLOCK_SIZE.key} (${2L * blockSize} bytes).")
    }
    KaeShuffleSettings(
      conf.get(ENABLED),
      codecOptions(conf),
      blockSize,
      conf.get(WRITER_MAX_MEMORY),
      initialBuffer.toInt,
      largeBuffers,
      conf.get(WRITER_FRAME_MEMORY),
      conf.get(WRITER_PROBE_INCOMPRESSIBLE) match {
        case "auto" => None
        case other => Some(other.toBoolean)
      },
      conf.get(WRITER_PARTITION_STREAMS),
      conf.get(KAEZIP_MIN_BLOCK).toInt,
      conf.get(KAEZIP_MAX_SESSIONS),
      conf.get(KAEZIP_SESSION_WAIT),
      conf.get(READER_PREFETCH),
      conf.get(READER_WINDOW_SIZE),
      windowKind(conf),
      conf.get(READER_MAX_IN_MEMORY_FETCH),
      conf.get(READER_LOCAL_READ_LIMIT).toInt,
      conf.get(STAGE_SUMMARY),
      conf.get(UI),
      conf.get(DOCTOR),
      EngineModel(
        TimeUnit.MICROSECONDS.toNanos(conf.get(DOCTOR_ENGINE_REQUEST)),
        TimeUnit.MICROSECONDS.toNanos(conf.get(DOCTOR_ENGINE_SESSION)),
        conf.get(DOCTOR_ENGINE_COMPRESS),
        conf.get(DOCTOR_ENGINE_DECOMPRESS)
      )
    )
  }

  /**
   * A mapped window puts decoded blocks in a file of the local dirs: with IO encryption, that
   * would be plaintext on disk.
   */
  private def windowKind(conf: SparkConf): DecodeWindow.Kind = {
    val kind = DecodeWindow.Kind.valueOf(conf.get(READER_WINDOW_KIND).toUpperCase(Locale.ROOT))
    if (kind == DecodeWindow.Kind.MAPPED && conf.get(config.IO_ENCRYPTION_ENABLED)) {
      throw new IllegalArgumentException(s"'${conf.get(READER_WINDOW_KIND)}' in " +
        s"${READER_WINDOW_KIND.key} is invalid with ${config.IO_ENCRYPTION_ENABLED.key}=true: a " +
        "mapped window writes decoded (plaintext) blocks to a file in the local dirs. Use direct.")
    }
    kind
  }

  /**
   * Parses one entry, so that a value Spark's own parser refuses names its key: Spark 4.1 and
   * later say which key a malformed size or time came from, Spark 4.0 does not.
   */
  private def parses(conf: SparkConf, entry: ConfigEntry[_]): Unit =
    try conf.get(entry)
    catch {
      case e: IllegalArgumentException if !String.valueOf(e.getMessage).contains(entry.key) =>
        throw new IllegalArgumentException(
          s"'${conf.get(entry.key, "")}' in ${entry.key} is invalid. ${e.getMessage}",
          e)
    }

  /** The codec layer's options; the level's range is the codec's own (CodecKind). */
  def codecOptions(conf: SparkConf): CodecOptions = {
    val builder = CodecOptions.builder()
      .codec(conf.get(CODEC))
      .kaezipLibrary(conf.get(KAEZIP_LIBRARY))
      .kaezipSkipHardwareCheck(conf.get(KAEZIP_SKIP_HARDWARE_CHECK))
      .libdeflateLibrary(conf.get(LIBDEFLATE_LIBRARY))
    val level = conf.get(LEVEL)
    try builder.level(level.getOrElse(CodecOptions.DEFAULT_LEVEL)).build()
    catch {
      case e: IllegalArgumentException =>
        throw new IllegalArgumentException(
          s"'${level.getOrElse("")}' in ${LEVEL.key} is " +
            s"invalid with ${CODEC.key}=${conf.get(CODEC)}. ${e.getMessage}",
          e)
    }
  }
}
