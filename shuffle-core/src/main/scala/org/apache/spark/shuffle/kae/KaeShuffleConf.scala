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

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.{CodecKind, CodecOptions}
import io.github.kaeshuffle.format.BlockFormat
import io.github.kaeshuffle.writer.WriterSettings

import org.apache.spark.internal.config.{ConfigEntry, OptionalConfigEntry}
import org.apache.spark.network.util.ByteUnit
import org.apache.spark.shuffle.kae.doctor.EngineModel

/**
 * Every setting of KAE Shuffle, declared once as a Spark config entry with its doc, default and a
 * check that rejects bad values at start-up with a sentence naming the key (how: the
 * [[ConfDeclarations]] it extends). docs/configuration.md is generated from these entries
 * ([[ConfigurationPage]]) and a test fails when the two drift apart.
 */
private[spark] object KaeShuffleConf extends ConfDeclarations("spark.shuffle.kae.") {
  val ENABLED: ConfigEntry[Boolean] = entry("enabled")
    .doc("When false, every shuffle falls back to Spark's built-in sort shuffle (the manager " +
      "stays installed, so the setting can change between applications without redeploying).")
    .booleanConf
    .createWithDefault(true)

  val CODEC: ConfigEntry[String] = entry("codec")
    .doc("Block codec. `auto`: a ladder each executor moves each shuffle along by what bounds " +
      "its map tasks and what its reduce tasks wait for " +
      "([tuning.md](tuning.md#how-auto-chooses-the-codec)): first KAEzip when " +
      "the hardware is present, else lz4 (the cheapest in CPU), then zstd level 1, then zstd " +
      "level 3 where a stored byte's cost (the map tasks' disk time and, across hosts, the " +
      "reduce tasks' wait for the network, per stored byte; the disk's own rate, measured " +
      "once per executor by writing 4 MiB through to a file in a local directory, where the " +
      "pages waiting for it would take it over 30 s) pays for the stronger codec's " +
      "CPU; each move, and each shuffle that starts above the first step, is logged by the " +
      "executor with its figures, and `write.strongerRawBytes` counts " +
      "the bytes written above the first step. Readers decode every format, so tasks and hosts " +
      "that chose differently read each other's blocks. `kaezip`, `libdeflate`, `zlib` " +
      "(native), `java` (java.util.zip) all write the same zlib format, readable by each " +
      "other; `lz4` and `zstd` use the libraries Spark ships; a codec set by name is kept for " +
      "every block. A deflate backend that cannot load falls back to zlib, then java, and the " +
      "executor log says so once.")
    .stringConf
    .transform(_.toLowerCase(Locale.ROOT))
    .acceptsOneOf(CodecKind.ids().asScala.toSeq)
    .createWithDefault(CodecKind.AUTO.id())

  val LEVEL: OptionalConfigEntry[Int] = entry("codec.level")
    .doc("Compression level. Unset: 1, the fastest, for every codec. Ranges: 1-9 for kaezip, " +
      "zlib, java and auto (with `auto`, the level of KAEzip where it serves; the zstd steps " +
      "keep levels 1 and 3); 1-12 for libdeflate; 1-22 for zstd; 1 for lz4.")
    .intConf
    .acceptsCheckedBy("the codec's range (meaning), checked with the codec")
    .createOptional

  val BLOCK_SIZE: ConfigEntry[Long] = entry("blockSize")
    .doc("Raw (uncompressed) bytes per block: the codec is called once per block of this size. " +
      "For `kaezip` 256k was chosen on the KAEzip cost model: larger blocks (up to 1m, the " +
      "engine's request limit) cut requests and codec time but not job time there " +
      "(docs/benchmarks/kaezip-model/inflation.md). From 16k to 8m.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(
      v => v >= BlockFormat.MIN_BLOCK_SIZE && v <= BlockFormat.MAX_BLOCK_SIZE,
      s"Use ${BlockFormat.MIN_BLOCK_SIZE} (16k) to ${BlockFormat.MAX_BLOCK_SIZE} (8m) bytes."
    )
    .createWithDefaultString("256k")

  val WRITER_MAX_MEMORY: ConfigEntry[Long] = entry("writer.maxMemory")
    .doc("Most execution memory one map task's block writer holds (its partitions' raw " +
      "partial blocks and the frames it keeps in memory, writer.frameMemory) before it spills, " +
      "moving those frames to disk and closing the partial blocks early as short frames; 0 " +
      "for no limit of its own (it then " +
      "takes what Spark's task memory manager grants, and spills when that says no). At least " +
      "a few blocks' worth is needed: 1m or more.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v == 0 || v >= (1L << 20), "Use 0 (no limit) or at least 1m.")
    .createWithDefault(0L)

  val WRITER_INITIAL_BUFFER: ConfigEntry[Long] = entry("writer.initialBufferSize")
    .doc("Chunk size of a partition's raw block buffer in the block writer while it is small: " +
      "chunks carved from pages of execution memory (growing from 4 chunks to 8 MiB), chained " +
      "up to 64 KiB (or the block size if smaller); past that the partition moves to one " +
      "direct buffer that doubles up to the block size. Small values keep shuffles with " +
      "thousands of partitions cheap. The most it is: with over 2,048 partitions chunks are 8 " +
      "MiB over the partition count (a power of two, at least 512 bytes; 512 at 20,000 " +
      "partitions); never over 64 KiB. From 1k to the block size.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 1024 && v <= BlockFormat.MAX_BLOCK_SIZE, "Use 1k to 8m.")
    .createWithDefaultString("4k")

  val WRITER_LARGE_BUFFER_MEMORY: ConfigEntry[Long] = entry("writer.largeBufferMemory")
    .doc("Most bytes one map task's block writer keeps in large raw buffers: a partition's " +
      "buffer past its first 64 KiB, one direct buffer growing to the block size. When one " +
      "would grow past this, the fullest partition's bytes are parked, raw, in the task's " +
      "frame file and its buffer handed to the next partition that needs one; they are read " +
      "back when that partition's block is " +
      "full, so every block is still compressed once, whole, and the output is byte for byte " +
      "the same. Without it a task holds up to partitions x blockSize (200 partitions: 50 " +
      "MiB); with it this, plus partitions x 64 KiB of small buffers and one block to put a " +
      "parked block back together. Parking costs a write and a read of the bytes parked " +
      "(the page cache's, usually). 0 for no bound; else at least two blocks.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 0, "Use 0 (no bound) or a size of at least two blocks.")
    .createWithDefaultString("16m")

  val WRITER_FRAME_MEMORY: ConfigEntry[Long] = entry("writer.frameMemory")
    .doc("Most bytes of compressed frames (and parked raw bytes) one map task's block writer " +
      "keeps in execution memory, in pages of 1 MiB taken while Spark's task memory manager " +
      "grants them, before it writes the rest to its frame file. A map output that fits reaches " +
      "the disk once, in its data file; past it, its frames are written twice (the frame file, " +
      "then the data file) and the frame file's deletion at the end of the task can wait for " +
      "the kernel's writeback on a slow disk. A spill moves the pages to the file. 0 writes " +
      "every frame to the file as it is made; else at least 1m.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v == 0 || v >= (1L << 20), "Use 0 (frames to disk) or at least 1m.")
    .createWithDefaultString("64m")

  val WRITER_PROBE_INCOMPRESSIBLE: ConfigEntry[String] = entry("writer.probeIncompressible")
    .doc("Before compressing a block, test a sample of it (16 KiB of a 256 KiB block: byte " +
      "entropy and repeated 8-byte sequences) and store a block judged incompressible raw, " +
      "without calling the codec. `auto`: on for the software deflate codecs (libdeflate, zlib, " +
      "java), which are slowest on random or already compressed bytes; off for lz4 and zstd, " +
      "which pass over such bytes quickly themselves, and for the KAEzip engine, where one " +
      "request for such a block costs less than probing every block. `true` or `false` for " +
      "every codec. A misjudged block only loses what the codec would have saved on it (about " +
      "1-2% at most), never data; blocks under 16 KiB are never probed.")
    .stringConf
    .transform(_.toLowerCase(Locale.ROOT))
    .acceptsOneOf(Seq("auto", "true", "false"))
    .createWithDefault("auto")

  val WRITER_PARTITION_STREAMS: ConfigEntry[Int] = entry("writer.partitionStreams")
    .doc("Up to this many partitions, the block writer keeps one serialization stream per " +
      "partition (Kryo and other relocatable serializers; Spark SQL's rows need none, they are " +
      "copied into the buffers directly), writing straight into the partition's block " +
      "buffer; with more, one stream serves all partitions and is flushed into the record's " +
      "partition after every record. Each stream holds the serializer's own output buffer " +
      "(Kryo's: 4 KiB, whatever spark.kryoserializer.buffer says) and, with Kryo, an instance " +
      "from Spark's Kryo pool, as in Spark's bypass-merge writer, whose limit " +
      "(spark.shuffle.sort.bypassMergeThreshold) is the default; the 4 KiB buffers are counted " +
      "as the task's execution memory. 0 for one stream always.")
    .intConf
    .accepts(v => v >= 0 && v <= 100000, "Use 0 to 100000.")
    .createWithDefault(WriterSettings.DEFAULT_PARTITION_STREAMS)

  val READER_PREFETCH: ConfigEntry[Boolean] = entry("reader.prefetch")
    .doc("Decompress blocks ahead of the deserializer on a background thread, after reading " +
      "each segment's index. Applies to blocks on this host (read or memory-mapped: " +
      "reader.localReadLimit) and to " +
      "fetched ranges up to reader.maxInMemoryFetch; others are decoded as they stream in.")
    .booleanConf
    .createWithDefault(true)

  val READER_WINDOW_SIZE: ConfigEntry[Long] = entry("reader.windowSize")
    .doc("Decoded bytes that may wait for the deserializer, per open stream (at least two " +
      "blocks), counted as the task's execution memory. When the task cannot get it, the " +
      "stream is decoded without prefetching.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 32 * 1024 && v <= (1L << 30), "Use 32k to 1g.")
    .createWithDefaultString("2m")

  val READER_WINDOW_KIND: ConfigEntry[String] = entry("reader.window")
    .doc("Where decoded blocks wait: `direct` (off-heap buffers) or `mapped` (a memory-mapped " +
      "file in the executor's local dirs). Both are released explicitly when the task ends. " +
      "`mapped` is refused with spark.io.encryption.enabled: it would put decoded blocks on disk.")
    .stringConf
    .transform(_.toLowerCase(Locale.ROOT))
    .acceptsOneOf(Seq("direct", "mapped"))
    .createWithDefault("direct")

  val READER_MAX_IN_MEMORY_FETCH: ConfigEntry[Long] = entry("reader.maxInMemoryFetch")
    .doc("Largest fetched range (one segment, or several for a batch fetch) read whole into " +
      "memory to be decompressed ahead; larger ones are decoded as they stream in.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 0 && v <= Int.MaxValue, "Use 0 to 2g.")
    .createWithDefaultString("64m")

  val READER_LOCAL_READ_LIMIT: ConfigEntry[Long] = entry("reader.localReadLimit")
    .doc("Largest segment on this host (this executor's, or host-local) or push-merged chunk " +
      "read from a local file, read whole into a heap copy with one read, as on-heap execution " +
      "memory; larger ones are memory-mapped. At thousands of partitions most segments are a " +
      "few KB, and a map and unmap per segment costs more than the copy. 0 maps every one.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 0 && v <= 16 * 1024 * 1024, "Use 0 to 16m.")
    .createWithDefaultString("64k")

  val KAEZIP_LIBRARY: ConfigEntry[String] = entry("kaezip.libraryPath")
    .doc("Path of KAEzip's zlib-compatible library, opened with dlopen(RTLD_LOCAL) only on " +
      "aarch64 hosts whose /proc/cpuinfo shows a HiSilicon CPU (implementer 0x48) and that have " +
      "a /sys/class/uacce/hisi_zip* device this user may open, with free queues. Used only " +
      "where the process's KAEzip preflight then sees a round trip through it take a hardware " +
      "queue: the library falls back to software inside itself, which would be slower than lz4 " +
      "and make every hardware count untrue.")
    .stringConf
    .accepts(_.nonEmpty, "Give a library path.")
    .createWithDefault(CodecOptions.DEFAULT_KAEZIP_LIBRARY)

  val KAEZIP_SKIP_HARDWARE_CHECK: ConfigEntry[Boolean] = entry("kaezip.skipHardwareCheck")
    .doc("Load the KAEzip library without the preflight's checks (the CPU, the devices and " +
      "this user's access to them, a queue taken by a round trip). Only for tests with a " +
      "zlib-compatible stand-in library: some KAE builds abort the JVM on other CPUs. The " +
      "hardware requests counted then are the cost model's; stage summaries call them " +
      "modelled.")
    .booleanConf
    .createWithDefault(false)

  val KAEZIP_MIN_BLOCK: ConfigEntry[Long] = entry("kaezip.minBlockSize")
    .doc("Blocks shorter than this are compressed by software zlib instead of the KAEzip " +
      "engine, in the same format: each hardware request has a fixed cost, and a partition's " +
      "last block is often tiny. 0 sends every block to the engine. The default is a guess " +
      "from the KAEzip cost model (50 us per request against about 40 us of native zlib for 4 " +
      "KiB on this project's machine), not a hardware measurement. Up to 1m.")
    .bytesConf(ByteUnit.BYTE)
    .accepts(v => v >= 0 && v <= (1L << 20), "Use 0 to 1m.")
    .createWithDefaultString("4k")

  val KAEZIP_MAX_SESSIONS: OptionalConfigEntry[Int] = entry("kaezip.maxSessions")
    .doc("Most KAEzip hardware sessions an executor holds open at once, per direction " +
      "(compress, decompress). Each is a native context with an 8 MiB staging buffer and a " +
      "hardware queue other processes on the node share; contexts are pooled and reused, so " +
      "an executor needs about one per task slot for writing and two for reading. Unset: twice " +
      "the executor's task slots. When all are lent, see kaezip.sessionWait.")
    .intConf
    .accepts(_ >= 1, "Use 1 or more.")
    .createOptional

  val KAEZIP_SESSION_WAIT: ConfigEntry[Long] = entry("kaezip.sessionWait")
    .doc("How long a task waits for a KAEzip session when kaezip.maxSessions are all lent, " +
      "before it compresses or decompresses in software zlib instead (same format, counted as " +
      "overflow blocks). 0 goes to software at once; the wait is bounded so that a task " +
      "holding one session never blocks another forever.")
    .timeConf(TimeUnit.MILLISECONDS)
    .accepts(v => v >= 0 && v <= 600000, "Use 0 to 10min.")
    .createWithDefaultString("0ms")

  val LIBDEFLATE_LIBRARY: ConfigEntry[String] = entry("libdeflate.libraryPath")
    .doc("Name or path of libdeflate for dlopen (Debian package libdeflate0).")
    .stringConf
    .accepts(_.nonEmpty, "Give a library name or path.")
    .createWithDefault(CodecOptions.DEFAULT_LIBDEFLATE_LIBRARY)

  val STAGE_SUMMARY: ConfigEntry[Boolean] = entry("log.stageSummary")
    .doc("Log one line per completed stage that wrote or read a KAE shuffle, in the driver log: " +
      "raw and stored bytes, codec calls, bytes per call, time in the codec.")
    .booleanConf
    .createWithDefault(true)

  val UI: ConfigEntry[Boolean] = entry("ui.enabled")
    .doc("Show the KAE Shuffle tab in the Spark UI (from the application's first shuffle on) and " +
      "post what the driver chose (codec, hardware verdict, settings, shuffles that fell back) " +
      "to the listener bus, so the event log carries it to the History Server's tab " +
      "(docs/metrics.md).")
    .booleanConf
    .createWithDefault(true)

  val DOCTOR: ConfigEntry[Boolean] = entry("doctor.enabled")
    .doc("The shuffle doctor: measure, in every task, the time in each link of the shuffle " +
      "chain (serialization, compress, disk write; fetch, decompress, deserialization; exact " +
      "per block, sampled on one record in 32) and log per stage which link bounds it and what " +
      "a faster codec or disk could save (docs/tuning.md). The times are also counts " +
      "(`*Nanos`) of the `kae.shuffle` accumulator on each stage's page of the Spark UI and in " +
      "the event log.")
    .booleanConf
    .createWithDefault(true)

  val DOCTOR_ENGINE_REQUEST: ConfigEntry[Long] = entry("doctor.engine.requestLatency")
    .doc("The shuffle doctor's hardware engine model (stages a KAEzip codec served): the fixed " +
      "cost of one hardware request. No public figure exists: the default is the KAEzip cost " +
      "model's guess; measure it on your hardware (docs/benchmarks/kaezip-model).")
    .timeConf(TimeUnit.MICROSECONDS)
    .accepts(v => v >= 0 && v <= 1000000, "Use 0 to 1s.")
    .createWithDefaultString(s"${EngineModel.KaeZip.requestNanos / 1000}us")

  val DOCTOR_ENGINE_SESSION: ConfigEntry[Long] = entry("doctor.engine.sessionSetup")
    .doc("The engine model's cost of opening one hardware session (a guess, as requestLatency).")
    .timeConf(TimeUnit.MICROSECONDS)
    .accepts(v => v >= 0 && v <= 10000000, "Use 0 to 10s.")
    .createWithDefaultString(s"${EngineModel.KaeZip.sessionNanos / 1000}us")

  val DOCTOR_ENGINE_COMPRESS: ConfigEntry[Int] = entry("doctor.engine.compressMBps")
    .doc("The engine model's compress throughput in MB/s (Huawei publishes 7 GB/s per " +
      "Kunpeng 920 processor).")
    .intConf
    .accepts(_ >= 1, "Use 1 or more.")
    .createWithDefault(EngineModel.KaeZip.compressMBps.toInt)

  val DOCTOR_ENGINE_DECOMPRESS: ConfigEntry[Int] = entry("doctor.engine.decompressMBps")
    .doc("The engine model's decompress throughput in MB/s (published: 8 GB/s per processor).")
    .intConf
    .accepts(_ >= 1, "Use 1 or more.")
    .createWithDefault(EngineModel.KaeZip.decompressMBps.toInt)
}
