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

import java.nio.file.Files
import java.util.Random
import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.testing.TestScope
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{HashPartitioner, SparkConf}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics
import org.apache.spark.shuffle.kae.writer.WriterMemory

/** Both map-side writers: the block writer (Kryo, no combine) and the sort writer (the rest). */
class KaeShuffleWriterSuite extends AnyFunSuite {
  private val Block = 16 * 1024

  /** Adds up what tasks report: shuffle bytes and records written, bytes spilled. */
  private class WriteTotals extends SparkListener {
    val bytesWritten = new AtomicLong
    val recordsWritten = new AtomicLong
    val diskSpilled = new AtomicLong
    override def onTaskEnd(e: SparkListenerTaskEnd): Unit = if (e.taskMetrics != null) {
      bytesWritten.addAndGet(e.taskMetrics.shuffleWriteMetrics.bytesWritten)
      recordsWritten.addAndGet(e.taskMetrics.shuffleWriteMetrics.recordsWritten)
      diskSpilled.addAndGet(e.taskMetrics.diskBytesSpilled)
    }
  }

  private def handleOf(rdd: RDD[_]): KaeShuffleHandle[_, _, _] =
    rdd.dependencies.head.asInstanceOf[org.apache.spark.ShuffleDependency[_, _, _]]
      .shuffleHandle.asInstanceOf[KaeShuffleHandle[_, _, _]]

  private def kae(extra: (String, String)*): SparkConf =
    LocalSpark.conf().set(KaeShuffleConf.BLOCK_SIZE.key, Block.toString).setAll(extra)

  test("each partition is one segment of full blocks; disk bytes equal reported bytes") {
    LocalSpark.withSpark(kae()) { sc =>
      val totals = new WriteTotals
      sc.addSparkListener(totals)
      val rdd = sc.parallelize(0 until 4, 4).flatMap { slice =>
        val r = new Random(slice)
        Iterator.fill(20000)((r.nextInt(1000), "v" * (1 + r.nextInt(40))))
      }.partitionBy(new HashPartitioner(7))
      rdd.count()
      sc.listenerBus.waitUntilEmpty()
      val outputs = ShuffleFiles.mapOutputs(sc, 0)
      assert(outputs.size == 4)
      val blocks = wholeBlocks(outputs)
      assert(totals.bytesWritten.get == outputs.map(o => Files.size(o.data)).sum)
      assert(totals.recordsWritten.get == 80000)
      val handle = handleOf(rdd)
      assert(handle.blockWriter, "Kryo without combine takes the block writer")
      assert(
        handle.metrics(KaeShuffleMetrics.WriteCodecCalls) == blocks,
        "one codec call per block")
      assert(handle.metrics(KaeShuffleMetrics.WriteRawBytes) ==
        outputs.flatMap(_.segments.values).map(_.totalRawLength).sum)
    }
  }

  /** Checks that every segment is whole blocks but its last; returns how many blocks in all. */
  private def wholeBlocks(outputs: Seq[ShuffleFiles.MapOutput]): Long =
    outputs.flatMap { o =>
      o.segments.map { case (p, idx) =>
        assert(idx.segmentLength == o.partitionLength(p))
        for (b <- 0 until idx.blockCount - 1) assert(idx.rawLength(b) == Block)
        assert(idx.rawLength(idx.blockCount - 1) <= Block)
        assert(idx.blockCount == (idx.totalRawLength + Block - 1) / Block)
        idx.blockCount.toLong
      }
    }.sum

  test("a serializer that flushes after every field still fills whole blocks, in both writers") {
    LocalSpark.withSpark(kae()) { sc =>
      // chill's tuple serializers flush Kryo's output after each field: a stream codec that
      // writes a block on flush (Spark's zstd) writes one per field, as MLlib's LDA shows.
      val flushes = new AtomicLong
      val counting = new java.io.OutputStream {
        override def write(b: Int): Unit = ()
        override def flush(): Unit = flushes.incrementAndGet()
      }
      sc.env.serializer.newInstance().serializeStream(counting).writeObject((1L, 2L, 3.0))
      assert(flushes.get >= 3, "the premise: Kryo flushes a tuple's stream per field")
      val edges = sc.parallelize(0 until 4, 4).flatMap { slice =>
        val r = new Random(slice)
        Iterator.fill(20000)((r.nextInt(1 << 30).toLong, (r.nextLong(), slice.toLong, 1.0)))
      }
      val direct = edges.partitionBy(new HashPartitioner(7))
      val combined = edges.reduceByKey(
        new HashPartitioner(7),
        (a, b) => (a._1 ^ b._1, a._2 + b._2, a._3 + b._3))
      for ((rdd, blockWriter) <- Seq((direct, true), (combined, false))) {
        assert(rdd.count() > 70000)
        val handle = handleOf(rdd)
        assert(handle.blockWriter == blockWriter)
        val blocks = wholeBlocks(ShuffleFiles.mapOutputs(sc, handle.shuffleId))
        assert(blocks > 28, "more blocks than segments (4 maps x 7 partitions)")
        assert(handle.metrics(KaeShuffleMetrics.WriteCodecCalls) == blocks)
      }
    }
  }

  test("random data is stored raw and output is never larger than input plus framing; the " +
    "deflate codecs probe it and skip the codec call, or call it when the probe is off") {
    for (probe <- Seq("auto", "false")) {
      LocalSpark.withSpark(kae(
        KaeShuffleConf.CODEC.key -> "zlib",
        KaeShuffleConf.WRITER_PROBE_INCOMPRESSIBLE.key -> probe)) { sc =>
        val rdd = sc.parallelize(0 until 2, 2).flatMap { slice =>
          val r = new Random(slice)
          // Records of 1,000 random bytes, like the incompressible workload: Kryo's few
          // constant bytes between them must not make a block look compressible.
          Iterator.fill(1000) {
            val b = new Array[Byte](1000)
            r.nextBytes(b)
            (r.nextInt(), b)
          }
        }.partitionBy(new HashPartitioner(3))
        rdd.count()
        val m = handleOf(rdd).metrics
        assert(m(KaeShuffleMetrics.WriteStoredRawBlocks) > 0)
        if (probe == "auto") {
          // Only the last, partial block of each segment (2 maps x 3 partitions) is too small
          // to probe.
          assert(
            m(KaeShuffleMetrics.WriteCodecCalls) <= 6,
            "full random blocks need no codec call")
          assert(m(KaeShuffleMetrics.WriteProbedRawBlocks) >= 100)
          assert(m(KaeShuffleMetrics.WriteStoredRawBlocks) ==
            m(KaeShuffleMetrics.WriteProbedRawBlocks) + m(
              KaeShuffleMetrics.WriteCodecCalls))
        } else {
          assert(m(KaeShuffleMetrics.WriteProbedRawBlocks) == 0)
          assert(m(KaeShuffleMetrics.WriteStoredRawBlocks) == m(
            KaeShuffleMetrics.WriteCodecCalls))
        }
        assert(
          m(KaeShuffleMetrics.WriteStoredBytes) == m(KaeShuffleMetrics.WriteRawBytes))
        val onDisk = ShuffleFiles.mapOutputs(sc, 0).map(o => Files.size(o.data)).sum
        assert(
          onDisk <= m(KaeShuffleMetrics.WriteRawBytes) * 1.01,
          s"$onDisk vs ${m(KaeShuffleMetrics.WriteRawBytes)}")
      }
    }
  }

  test("a serialization stream per partition and one stream for all write the same bytes") {
    def mapOutputs(streams: Int): Seq[Seq[Byte]] =
      LocalSpark.withSpark(kae(KaeShuffleConf.WRITER_PARTITION_STREAMS.key -> streams.toString)) {
        sc =>
          val rdd = sc.parallelize(0 until 3, 3).flatMap { slice =>
            val r = new Random(slice)
            Iterator.fill(20000)((r.nextInt(5000), "v" * r.nextInt(40) + slice))
          }.partitionBy(new HashPartitioner(7))
          rdd.count()
          assert(handleOf(rdd).blockWriter)
          ShuffleFiles.mapOutputs(sc, 0).map(_.bytes.toSeq)
      }
    val perPartition = mapOutputs(7)
    assert(perPartition.size == 3 && perPartition.forall(_.nonEmpty))
    assert(perPartition == mapOutputs(0))
  }

  test("each partition's serialization stream is counted as the task's execution memory") {
    // One small record per partition: each holds a 4 KiB chunk of raw buffer (in pages that round
    // the 150 up), and a 4 KiB stream buffer when it has a stream of its own.
    def peak(streams: Int): Long =
      LocalSpark.withSpark(kae(KaeShuffleConf.WRITER_PARTITION_STREAMS.key -> streams.toString)) {
        sc =>
          val peak = new AtomicLong
          sc.addSparkListener(new SparkListener {
            override def onTaskEnd(e: SparkListenerTaskEnd): Unit = if (e.taskMetrics != null) {
              peak.accumulateAndGet(e.taskMetrics.peakExecutionMemory, math.max)
            }
          })
          val rdd = sc.parallelize(0 until 150, 1).map(i => (i, i)).partitionBy(
            new HashPartitioner(150))
          assert(rdd.count() == 150 && handleOf(rdd).blockWriter)
          sc.listenerBus.waitUntilEmpty()
          peak.get
      }
    val perPartition = peak(150)
    val shared = peak(0)
    assert(perPartition >= 150 * (4096L + WriterMemory.SerializerStreamBytes))
    assert(shared >= 150 * 4096L)
    assert(perPartition - shared == 149 * WriterMemory.SerializerStreamBytes)
  }

  private def wordCounts(sc: org.apache.spark.SparkContext, parts: Int): RDD[(String, Int)] =
    sc.parallelize(0 until 8, 8).flatMap { slice =>
      val r = new Random(slice)
      Iterator.fill(30000)(("w" + r.nextInt(20000), 1))
    }.reduceByKey(_ + _, parts)

  // 8,000 reduce tasks in all; the gate's 400 partitions spill the same way in a fifth of them.
  private val manyPartitions = if (TestScope.full) 2000 else 400

  test(s"$manyPartitions partitions with forced spills in a 512 MiB driver match Spark's shuffle") {
    def run(conf: SparkConf) = LocalSpark.withSpark(conf
      .set("spark.testing.memory", (512L << 20).toString)
      .set("spark.shuffle.spill.numElementsForceSpillThreshold", "5000")) { sc =>
      val totals = new WriteTotals
      sc.addSparkListener(totals)
      val parts = manyPartitions // a local, so the closure does not capture the suite
      val result = wordCounts(sc, parts).collect().sorted.toSeq
      val grouped = sc.parallelize(1 to 50000, 4).map(i => (i % parts, i))
        .groupByKey(parts).mapValues(_.sum).collect().sorted.toSeq
      sc.listenerBus.waitUntilEmpty()
      (result, grouped, totals.diskSpilled.get)
    }
    val (expected, expectedGrouped, _) = run(LocalSpark.conf(kae = false))
    val (actual, actualGrouped, spilled) = run(kae())
    assert(spilled > 0, "the test must spill")
    assert(actual == expected)
    assert(actualGrouped == expectedGrouped)
  }

  test("map-side combine, key ordering and the Java serializer") {
    def run(conf: SparkConf) = LocalSpark.withSpark(conf) { sc =>
      val counts = wordCounts(sc, 5).collect().sorted.toSeq
      val sorted = wordCounts(sc, 5).map(_.swap).sortByKey(ascending = false, 4).collect().toSeq
      val agg = sc.parallelize(1 to 10000, 4).map(i => (i % 37, i))
        .aggregateByKey(List.empty[Int])((l, v) => v :: l, _ ++ _)
        .mapValues(_.sorted).collect().sortBy(_._1).toSeq
      (counts, sorted.map(_._1), agg)
    }
    for (serializer <- Seq(
        "org.apache.spark.serializer.KryoSerializer",
        "org.apache.spark.serializer.JavaSerializer")) {
      val expected = run(LocalSpark.conf(kae = false).set("spark.serializer", serializer))
      val actual = run(kae("spark.serializer" -> serializer))
      assert(actual == expected, serializer)
    }
  }

  test("the block writer in a few MiB of execution memory: spills, seals, matches Spark") {
    def run(conf: SparkConf) = LocalSpark.withSpark(conf
      .set("spark.testing.memory", (16L << 20).toString)
      .set("spark.testing.reservedMemory", "0")) { sc =>
      val totals = new WriteTotals
      sc.addSparkListener(totals)
      val rdd = sc.parallelize(0 until 4, 4).flatMap { slice =>
        val r = new Random(slice)
        Iterator.fill(50000)((r.nextInt(100000), "value-" + r.nextInt()))
      }.partitionBy(new HashPartitioner(2000))
      val digest = rdd.mapPartitionsWithIndex((i, it) => it.map(kv => (i, kv)))
        .collect().sorted.toSeq
      sc.listenerBus.waitUntilEmpty()
      val blockWriter = rdd.dependencies.head match {
        case d: org.apache.spark.ShuffleDependency[_, _, _] => d.shuffleHandle match {
            case h: KaeShuffleHandle[_, _, _] => h.blockWriter
            case _ => false
          }
      }
      (digest, totals.diskSpilled.get, blockWriter)
    }
    val (expected, _, _) = run(LocalSpark.conf(kae = false))
    val (actual, spilled, blockWriter) = run(kae())
    assert(blockWriter)
    assert(spilled > 0, "the block writer must spill in this little memory")
    assert(actual == expected)
  }
}
