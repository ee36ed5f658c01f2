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

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataInputStream, DataOutputStream}
import java.nio.charset.StandardCharsets
import java.nio.file.Files

import scala.io.Source

import io.github.kaeshuffle.writer.LinkCost
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}

import org.apache.spark.{SparkConf, SparkContext}
import org.apache.spark.deploy.history.EventLogFileReader
import org.apache.spark.io.CompressionCodec
import org.apache.spark.storage.StorageLevel
import org.scalatest.funsuite.AnyFunSuite

/**
 * [[KaeIoCodec]] as Spark uses it: made by Spark's own factory from its class name, streams that
 * read back and concatenate as Spark's codecs must, and one job's broadcast, serialized cached
 * blocks in memory and on disk, reliable checkpoint and shuffle through it with the results of
 * Spark's lz4 codec, whether our shuffle manager is on or off (then Spark's sort shuffle and its
 * spills use the codec too); one codec call per block of every stream.
 */
class KaeIoCodecSuite extends AnyFunSuite {
  private val Codec = classOf[KaeIoCodec].getName

  test("Spark's factory makes it, and its streams read back and concatenate") {
    val codec = CompressionCodec.createCodec(new SparkConf(false), Codec)
    assert(codec.isInstanceOf[KaeIoCodec])
    def stream(from: Int, n: Int): Array[Byte] = {
      val bytes = new ByteArrayOutputStream()
      val out = new DataOutputStream(codec.compressedOutputStream(bytes))
      (from until from + n).foreach(out.writeInt)
      out.close()
      bytes.toByteArray
    }
    val both = stream(0, 100000) ++ stream(100000, 10) ++ stream(0, 0)
    for (in <- Seq(
        codec.compressedInputStream(new ByteArrayInputStream(both)),
        codec.compressedContinuousInputStream(new ByteArrayInputStream(both)))) {
      val data = new DataInputStream(in)
      assert((0 until 100010).forall(_ == data.readInt()))
      assert(data.read() == -1)
      data.close()
    }
  }

  test("auto's streams on the driver move to a stronger step once the link is known to be slow") {
    val codec = CompressionCodec.createCodec(new SparkConf(false), Codec)
    val pools = KaeIoCodec.pools(new SparkConf(false))
    val text = (0 until 100000)
      .map(i => s"record ${i % 1000} ${i * 7919L % 100003}\n")
      .mkString
      .getBytes(StandardCharsets.UTF_8)
    def written(): Array[Byte] = {
      val bytes = new ByteArrayOutputStream()
      val out = codec.compressedOutputStream(bytes)
      out.write(text)
      out.close()
      bytes.toByteArray
    }
    def readBack(b: Array[Byte]): Array[Byte] = {
      val in = codec.compressedInputStream(new ByteArrayInputStream(b))
      try in.readAllBytes()
      finally in.close()
    }
    assert(pools.step() == 0, "no link known: the ladder's first step")
    val first = written()
    val link = new LinkCost()
    // The executors' reduce tasks waited 2 s for 4 MiB from other hosts: about 477 ns per stored
    // byte, the Kunpeng-shaped cluster's link.
    link.add(2000000000L, 4L << 20, 4L << 20)
    assert(IoCodecLink.install(link), "another application's link is still installed")
    try {
      assert(pools.step() > 0)
      val stronger = written()
      assert(stronger.length < first.length, s"${stronger.length} bytes against ${first.length}")
      assert(readBack(stronger).sameElements(text))
      assert(readBack(first ++ stronger).sameElements(text ++ text), "two steps, concatenated")
    } finally IoCodecLink.forget(link)
    assert(pools.step() == 0, "the application that knew the link has stopped")
  }

  /** Broadcast, cached blocks, checkpoint and shuffle in one job; its results. */
  private def job(sc: SparkContext): Seq[Any] = {
    sc.setCheckpointDir(Files.createTempDirectory("kae-io-checkpoint").toString)
    val table = sc.broadcast(Array.tabulate(400000)(i => (i * 7919L) % 100003))
    val rdd = sc
      .parallelize(0 until 200000, 4)
      .map(i => (i % 997, s"record $i ${table.value(i % table.value.length)}"))
    rdd.persist(StorageLevel.MEMORY_ONLY_SER)
    val onDisk = rdd.mapValues(_.length).persist(StorageLevel.DISK_ONLY)
    val checkpointed = rdd.mapValues(_.hashCode)
    checkpointed.checkpoint()
    Seq(
      rdd.count(),
      onDisk.values.sum(),
      checkpointed.values.map(_.toLong).sum(),
      checkpointed.count(),
      rdd.groupByKey(8).mapValues(_.toSeq.sorted.mkString.hashCode).collect().sorted.toSeq
    )
  }

  private def conf(codec: String, manager: Boolean): SparkConf =
    LocalSpark
      .conf("local[2]")
      .set("spark.io.compression.codec", codec)
      .set("spark.rdd.compress", "true")
      .set("spark.checkpoint.compress", "true")
      .set("spark.shuffle.kae.enabled", manager.toString)

  test("a job's broadcast, cached blocks, checkpoint and shuffle give lz4's results") {
    val expected = LocalSpark.withSpark(conf("lz4", manager = false))(job)
    for (manager <- Seq(false, true)) {
      val before = KaeIoCodec.counts()
      val actual = LocalSpark.withSpark(conf(Codec, manager))(job)
      assert(actual == expected, s"with our shuffle manager ${if (manager) "on" else "off"}")
      val c = KaeIoCodec.counts()
      val (raw, calls, streams) =
        (c.rawBytes - before.rawBytes, c.codecCalls - before.codecCalls, c.streams - before.streams)
      assert(raw > (4L << 20), s"$raw bytes through the codec")
      // One call per block: a stream's full blocks, and its last one.
      assert(calls <= raw / (256 * 1024) + streams, s"$calls calls for $raw bytes in $streams")
      // Output buffers are lent again: made for the streams open at once (Spark's bypass writer
      // opens one per reduce partition), not for every stream.
      val made = c.buffersMade - before.buffersMade
      assert(made < streams, s"$made output buffers made for $streams streams")
      val (inMade, inStreams) =
        (c.inputBuffersMade - before.inputBuffersMade, c.inputStreams - before.inputStreams)
      assert(inMade < inStreams, s"$inMade input buffers made for $inStreams streams")
    }
  }

  test("event logs keep Spark's own codec, and the History Server's reader replays them") {
    // spark.eventLog.compression.codec is separate from spark.io.compression.codec (zstd by
    // default), and the History Server picks a log's codec from its file name's last part,
    // which cannot name a class: so our codec is for the application's own IO, not its logs.
    val dir = Files.createTempDirectory("kae-io-eventlog")
    val c = conf(Codec, manager = true)
      .set("spark.eventLog.enabled", "true")
      .set("spark.eventLog.compress", "true")
      .set("spark.eventLog.dir", dir.toUri.toString)
    LocalSpark.withSpark(c)(job)
    val logs = dir.toFile.listFiles().toSeq
    assert(logs.size == 1, logs)
    // A single file on 3.5, a directory of rolled files from 4.0 on: Spark's reader takes both.
    val fs = FileSystem.getLocal(new Configuration())
    val reader = EventLogFileReader(fs, new Path(logs.head.toURI)).get
    assert(reader.compressionCodec.contains("zstd"), reader.compressionCodec)
    val events = reader.listEventLogFiles.flatMap { f =>
      val in = EventLogFileReader.openEventLog(f.getPath, fs)
      try Source.fromInputStream(in, StandardCharsets.UTF_8.name).getLines().toList
      finally in.close()
    }
    assert(events.exists(_.contains("\"Event\":\"SparkListenerApplicationEnd\"")), events.take(3))

    // Named for the event log itself, Spark refuses at start: it has no short name for the file.
    val refused = intercept[Exception](
      LocalSpark.withSpark(c.clone.set("spark.eventLog.compression.codec", Codec))(_ => ()))
    assert(
      Iterator.iterate[Throwable](refused)(_.getCause).takeWhile(_ != null)
        .exists(e => String.valueOf(e.getMessage).contains(Codec)),
      refused)
  }
}
