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
package io.github.kaeshuffle.it

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.workloads.{ScaleJobs, WorkloadJobs, Workloads}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.SparkConf

/**
 * `auto` follows what bounds the map tasks: the same sort (8 map tasks of 6 MiB of text each,
 * local[2]) stays on the cheap codec on this host as it is, also when each commit of a map output
 * is slow (a cost per task, not per stored byte), and moves to zstd on a disk as slow
 * per core as the study's Kunpeng node's, with the results of Spark's own shuffle both times.
 * The dirty-page bound is 8 MiB there, so that this job's few MiB meet the disk and not only the
 * page cache, as a node's shuffle of many GB does. A SQL shuffle that moved to zstd there still
 * tells Spark's adaptive execution the sizes the cheap codec would have stored, so it keeps the
 * cheap codec's reduce tasks.
 */
class AutoCodecSuite extends AnyFunSuite {
  private val MiB = 1L << 20
  private val Slices = 8
  private val Stronger = "kae.shuffle.write.strongerRawBytes"
  private val Raw = "kae.shuffle.write.rawBytes"
  private def lines: Int = (6 * MiB / ScaleJobs.bytesPerLine).toInt

  private def conf(codec: Option[String], localDirs: Option[Path]): SparkConf = {
    val c = Sessions.conf(codec, Sessions.Kryo, "local[2]")
      .set("spark.shuffle.kae.blockSize", "256k")
      .set("spark.shuffle.kae.doctor.enabled", "true")
    localDirs.foreach(d => c.set("spark.local.dir", Files.createTempDirectory(d, "local").toString))
    c
  }

  private def run(c: SparkConf): (WorkloadJobs.Digest, Map[String, Long]) =
    Sessions.withSession(c) { spark =>
      val totals = new KaeCountTotals(spark)
      val digest = WorkloadJobs.sort(spark, lines, Slices, 7L)
      (digest, totals.totals())
    }

  private lazy val expected = run(conf(None, None))._1

  /**
   * The sort's lines repartitioned by Spark SQL into 64 partitions, which adaptive execution
   * coalesces to about 2 MiB of map output each: the digest, the reduce tasks, the counts.
   */
  private def repartition(c: SparkConf): (WorkloadJobs.Digest, Int, Map[String, Long]) =
    Sessions.withSession(
      c.set("spark.sql.shuffle.partitions", "64")
        .set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "2m")) { spark =>
      import spark.implicits._
      val totals = new KaeCountTotals(spark)
      val lineCount = lines
      val text = spark.sparkContext.parallelize(0 until Slices, Slices)
        .flatMap(i => Workloads.lines(7L, i, lineCount).asScala)
        .toDF("line")
      val out = text.repartition($"line").rdd.map(_.getString(0))
      val digest = WorkloadJobs.unordered(out)
      (digest, out.getNumPartitions, totals.totals())
    }

  /** The Kunpeng node's disk per core for two cores, under `dir`, for `f`. */
  private def onKunpengDisk[T](dir: String)(f: Path => T): T = {
    NodeShape.unavailable.foreach(why => cancel(s"no node shape here: $why"))
    NodeShape.clean()
    val host = NodeShape.up(
      NodeShape.KunpengStudy,
      2,
      Files.createTempDirectory(dir),
      256,
      512 * MiB,
      Some(8 * MiB))
    try f(host.mount)
    finally host.close()
  }

  private def describe(t: Map[String, Long]): String = {
    val stored = math.max(1L, t("kae.shuffle.write.storedBytes"))
    val disk = t("kae.shuffle.write.diskNanos").toDouble / stored
    f"${t(Raw) / 1e6}%.1f MB raw, ${t(Stronger) / 1e6}%.1f MB of it with a stronger codec, " +
      f"${stored / 1e6}%.1f MB stored, disk $disk%.2f ns per stored byte"
  }

  test("on this host as it is, auto keeps the cheap codec and gives Spark's results") {
    val (digest, t) = run(conf(Some("auto"), None))
    info(describe(t))
    assert(digest == expected)
    assert(t(Raw) >= Slices * 5 * MiB)
    assert(t(Stronger) == 0, describe(t))
  }

  test("a slow commit is a cost per task: auto keeps the cheap codec, the doctor counts it") {
    // 200 ms per commit over the 3-4 MB a task stores is 50-60 ns per stored byte, far above
    // what moves the shuffle to zstd, but no codec would make it shorter.
    val c = conf(Some("auto"), None)
      .set("spark.shuffle.sort.io.plugin.class", classOf[FailingShuffleDataIO].getName)
      .set(FailingShuffleDataIO.MODE, "slowCommit")
    val (digest, t) = run(c)
    info(describe(t))
    assert(digest == expected)
    assert(t(Stronger) == 0, describe(t))
    val commits = Slices * FailingShuffleDataIO.SLOW_COMMIT_MILLIS * 1000000L
    assert(t("kae.shuffle.write.diskNanos") >= commits, describe(t))
  }

  test("on a disk as slow as the Kunpeng node's, auto moves to zstd and gives Spark's results") {
    val (digest, t) = onKunpengDisk("auto-codec-suite")(m => run(conf(Some("auto"), Some(m))))
    info(describe(t))
    assert(digest == expected)
    // The first tasks, two at once, start on lz4 before any task has measured the disk.
    assert(t(Stronger) >= t(Raw) / 2, describe(t))
  }

  test("a SQL shuffle auto moved to zstd keeps the reduce tasks of the cheap codec") {
    val (lz4Digest, lz4Tasks, _) = repartition(conf(Some("lz4"), None))
    val (digest, tasks, t) =
      onKunpengDisk("auto-codec-sql")(m => repartition(conf(Some("auto"), Some(m))))
    info(s"$tasks reduce tasks against $lz4Tasks with lz4; ${describe(t)}")
    assert(digest.sameAs(lz4Digest))
    assert(t(Stronger) >= t(Raw) / 2, describe(t))
    // Coalesced by the bytes zstd stored, the shuffle had 21 reduce tasks here, zstd by name 16.
    assert(tasks >= lz4Tasks * 9 / 10, s"$tasks reduce tasks against $lz4Tasks with lz4")
  }
}
