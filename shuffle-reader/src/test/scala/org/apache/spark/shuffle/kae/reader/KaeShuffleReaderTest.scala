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

import java.io.{ByteArrayOutputStream, DataOutputStream, FileOutputStream}
import java.nio.file.Files

import scala.collection.mutable

import io.github.kaeshuffle.format.BlockStats
import io.github.kaeshuffle.pool.DecoderPool
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}
import org.junit.jupiter.api.Assertions.assertThrows

import org.apache.spark.{FetchFailed, HashPartitioner, ShuffleDependency, SparkContext, SparkEnv}
import org.apache.spark.serializer.KryoSerializer
import org.apache.spark.shuffle.{FetchFailedException, IndexShuffleBlockResolver}
import org.apache.spark.storage.{BlockId, BlockManagerId, ShuffleBlockId}

/**
 * The reader alone, over map outputs in this executor's shuffle files as the KAE writers leave
 * them (segments in Spark's `.data`, Spark's `.index`), fetched by Spark's own fetcher: a range of
 * partitions read record for record, fetched one block at a time or as one batch, the metrics and
 * statistics it reports when the task completes, and a damaged block raised as Spark's fetch
 * failure. Remote fetches and the manager's choice of reader are the cluster suites'.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KaeShuffleReaderTest {
  private val Partitions = 4
  private val Maps = 2
  private var sc: SparkContext = _
  private lazy val kryo = new KryoSerializer(sc.getConf)
  private val decoders = new DecoderPool(null, 2)
  private val partitioner = new HashPartitioner(Partitions)

  @BeforeAll def startSpark(): Unit = sc = ReduceFixture.startSpark()

  @AfterAll def stopSpark(): Unit = {
    decoders.close()
    sc.stop()
  }

  private def here: BlockManagerId = SparkEnv.get.blockManager.blockManagerId

  /** Map `m`'s records: 3,000 of keys below 500. */
  private def mapRecords(m: Int): Seq[(Int, String)] =
    (0 until 3000).map(i => ((i * 7 + m) % 500, s"map $m record $i"))

  private def serialized(records: Seq[(Int, String)]): Array[Byte] = {
    val out = new ByteArrayOutputStream
    val s = kryo.newInstance().serializeStream(out)
    records.foreach { case (k, v) => s.writeKey(k).writeValue(v) }
    s.close()
    out.toByteArray
  }

  /**
   * A new shuffle whose map outputs are in this executor's shuffle files; returns the dependency
   * and each map output's partition lengths. `damage` changes a map output's bytes as written.
   */
  private def shuffle(damage: Array[Byte] => Unit = _ => ())
      : (ShuffleDependency[Int, String, String], Seq[Array[Long]]) = {
    val dep = new ShuffleDependency[Int, String, String](
      sc.emptyRDD[(Int, String)],
      partitioner,
      kryo)
    val resolver =
      SparkEnv.get.shuffleManager.shuffleBlockResolver.asInstanceOf[IndexShuffleBlockResolver]
    val lengths = (0 until Maps).map { m =>
      val segments = (0 until Partitions).map { p =>
        val records = mapRecords(m).filter(r => partitioner.getPartition(r._1) == p)
        ReduceFixture.segment(serialized(records))
      }
      val data = segments.flatten.toArray
      damage(data)
      Files.write(resolver.getDataFile(dep.shuffleId, m.toLong).toPath, data)
      val index = new DataOutputStream(
        new FileOutputStream(resolver.getIndexFile(dep.shuffleId, m.toLong)))
      try segments.scanLeft(0L)(_ + _.length).foreach(offset => index.writeLong(offset))
      finally index.close()
      segments.map(_.length.toLong).toArray
    }
    (dep, lengths)
  }

  private final class Read(
      dep: ShuffleDependency[Int, String, String],
      lengths: Seq[Array[Long]],
      from: Int,
      until: Int,
      batch: Boolean = false,
      doctor: Boolean = false) {
    val context = ReduceFixture.context(ReduceFixture.taskMemory(64))
    val metrics = context.taskMetrics.createTempShuffleReadMetrics()
    val reports = mutable.ArrayBuffer[(BlockStats, ReadSources)]()
    private val blocks: Seq[(BlockId, Long, Int)] =
      for (m <- 0 until Maps; p <- from until until)
        yield (ShuffleBlockId(dep.shuffleId, m.toLong, p), lengths(m)(p), m)
    val reader = new KaeShuffleReader[Int, String](
      dep,
      Iterator((here, blocks)),
      context,
      metrics,
      ReduceFixture.settings(prefetch = true),
      decoders,
      (stats, sources) => reports += ((stats, sources)),
      batch,
      None,
      doctor
    )

    def records(): Seq[(Int, String)] =
      try reader.read().map(r => (r._1, r._2)).toList
      finally context.markTaskCompleted(None)
  }

  private def expected(from: Int, until: Int): Seq[(Int, String)] =
    (0 until Maps).flatMap(mapRecords).filter { r =>
      val p = partitioner.getPartition(r._1)
      p >= from && p < until
    }

  @Test def aRangeOfPartitionsIsReadRecordForRecordAndReportedWhenTheTaskCompletes(): Unit = {
    val (dep, lengths) = shuffle()
    val read = new Read(dep, lengths, 1, 3)
    val got = read.records()
    assert(got.sortBy(_._2) == expected(1, 3).sortBy(_._2))
    assert(read.metrics.recordsRead == got.size)
    assert(read.metrics.localBytesRead == lengths.map(l => l(1) + l(2)).sum)
    assert(read.reports.size == 1, "one report when the task completes")
    val (stats, sources) = read.reports.head
    assert(stats.blocks() > 0 && stats.rawBytes() > stats.storedBytes())
    assert(sources.fileReadBytes + sources.mappedBytes == read.metrics.localBytesRead)
    assert(read.context.taskMemoryManager.getMemoryConsumptionForThisTask == 0)
  }

  @Test def contiguousPartitionsFetchedAsOneBatchGiveTheSameRecords(): Unit = {
    val (dep, lengths) = shuffle()
    val read = new Read(dep, lengths, 0, Partitions, batch = true)
    assert(read.records().sortBy(_._2) == expected(0, Partitions).sortBy(_._2))
    assert(read.metrics.localBlocksFetched == Maps, "one batch per map output")
  }

  @Test def withTheDoctorTheReadIsTimedByLink(): Unit = {
    val (dep, lengths) = shuffle()
    val read = new Read(dep, lengths, 0, Partitions, doctor = true)
    read.records()
    val sources = read.reports.head._2
    assert(sources.fetchNanos > 0 && sources.decodeNanos > 0, s"$sources")
    assert(sources.deserializeNanos > 0, s"$sources")
  }

  @Test def aDamagedBlockIsSparksFetchFailure(): Unit = {
    val (dep, lengths) = shuffle(data => data(40) = (data(40) ^ 0xff).toByte)
    val read = new Read(dep, lengths, 0, 1)
    val failed = assertThrows(
      classOf[FetchFailedException],
      () => read.records(): Unit,
      "a fetch failure, never wrong rows")
    val reason = failed.toTaskFailedReason.asInstanceOf[FetchFailed]
    assert((reason.shuffleId, reason.mapId, reason.reduceId) == ((dep.shuffleId, 0L, 0)))
  }
}
