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

import java.io.File
import java.nio.file.Files
import java.util.concurrent.ConcurrentLinkedQueue
import javax.imageio.ImageIO

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.github.kaeshuffle.deploy.Pairs
import io.github.kaeshuffle.it.{FailingShuffleDataIO, Sessions}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{SparkConf, Success}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.doctor.{
  CodecRates,
  Diagnosis,
  DoctorChart,
  KaeStageSummaryListener,
  ShuffleDoctor
}
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics
import org.apache.spark.shuffle.kae.metrics.ShuffleCounts
import org.apache.spark.sql.SparkSession

/**
 * The shuffle doctor on real jobs (local mode): link times add up within each task's run time; a
 * slow codec and a slow disk (injected delays) are each named as the bound; an event log replayed
 * by the command gives the live diagnoses, and a chart.
 */
class ShuffleDoctorJobSuite extends AnyFunSuite {
  import KaeShuffleMetrics._

  /** One finished task: its run time and its KAE accumulator updates. */
  private case class TaskTimes(stage: Int, runNanos: Long, kae: Map[String, Long]) {
    def k(name: String): Long = kae.getOrElse(name, 0L)
    def exact: Long = k(WriteCodecNanos) + k(WriteDiskNanos) + k(ReadFetchNanos) +
      k(ReadDecodeNanos)
    def all: Long = exact + k(WriteSerializeNanos) + k(ReadDeserializeNanos)
  }

  /**
   * Runs `job` and returns the diagnoses of its stages and every task's times. With `warmUp` the
   * job runs once before it is measured: the first tasks of a JVM run interpreted code, where a
   * sample's own clock reads weigh much more than in compiled code (docs/tuning.md, limits).
   */
  private def run(
      conf: SparkConf,
      warmUp: Boolean = false)(job: SparkSession => Unit): (Seq[Diagnosis], Seq[TaskTimes]) = {
    val diagnoses = new ConcurrentLinkedQueue[Diagnosis]()
    val tasks = new ConcurrentLinkedQueue[TaskTimes]()
    Sessions.withSession(conf.set(KaeShuffleConf.STAGE_SUMMARY.key, "false")) { spark =>
      val sc = spark.sparkContext
      if (warmUp) {
        job(spark)
        KaeSparkAccess.drainListeners(sc)
      }
      val options = KaeShuffleSettings.codecOptions(sc.getConf)
      sc.addSparkListener(new KaeStageSummaryListener(
        summaries = false,
        doctor = true,
        rates = () => Try(CodecRates.of(options)).toOption,
        out = _ => (),
        onDiagnosis = d => diagnoses.add(d)))
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit = if (e.reason == Success) {
          tasks.add(TaskTimes(
            e.stageId,
            e.taskMetrics.executorRunTime * 1000000L,
            ShuffleCounts.fromAccumulables(e.taskInfo.accumulables, _.update).counts))
        }
      })
      job(spark)
      KaeSparkAccess.drainListeners(sc)
    }
    (diagnoses.asScala.toSeq, tasks.asScala.toSeq)
  }

  private def conf(codec: String = "lz4"): SparkConf =
    Sessions.conf(Some(codec), Sessions.Kryo, "local[2]")

  /** A repartition (block writer), a reduceByKey (sort writer), results checked. */
  private def pairsJobs(spark: SparkSession, perTask: Int = 20000): Unit = {
    val sc = spark.sparkContext
    assert(Pairs.sumsOf(Pairs.partitioned(sc)) == Pairs.expectedSums())
    val combined = Pairs.pairs(sc, perTask).reduceByKey(_ + _, Pairs.Reducers).collect().toMap
    assert(combined == Pairs.expectedSums(perTask))
  }

  test("link times add up: within each task's run time, and every stage diagnosed") {
    val (diagnoses, tasks) = run(conf("auto"), warmUp = true)(spark => pairsJobs(spark))
    val kaeTasks = tasks.filter(_.kae.nonEmpty)
    // Two jobs, each a map stage and a reduce stage.
    assert(kaeTasks.size == 2 * (Pairs.MapTasks + Pairs.Reducers), s"${kaeTasks.size} tasks")
    for (t <- kaeTasks) {
      // Run time is whole milliseconds; exact links are clock reads inside it.
      assert(t.exact <= t.runNanos + 1000000L, t)
      assert(t.all <= t.runNanos * 11 / 10 + 2000000L, t)
    }
    assert(diagnoses.map(_.kind).sorted == Seq("map", "map", "reduce", "reduce"), diagnoses)
    for (d <- diagnoses) {
      assert(d.links.forall(_.nanos > 0), d.line)
      val shares = d.all.map(l => l.nanos.toDouble / d.total).sum
      assert(math.abs(shares - 1.0) < 1e-9, d.line)
      assert(d.line.contains(" on this machine: compress "), d.line)
    }
  }

  test("with the doctor off nothing is timed and nothing diagnosed") {
    val (diagnoses, tasks) = run(conf().set(KaeShuffleConf.DOCTOR.key, "false")) { spark =>
      pairsJobs(spark)
    }
    assert(diagnoses.isEmpty)
    // The fetcher's waits count with the doctor off too: auto prices the link with them.
    val names = Seq(WriteSerializeNanos, WriteDiskNanos, ReadDecodeNanos, ReadDeserializeNanos)
    assert(tasks.forall(t => names.forall(t.k(_) == 0)), tasks)
  }

  test("a slow codec (50 ms per call) is named as the bound of the map and reduce stages") {
    val slow = new File(new File(Sessions.standIn).getParentFile, "libzslow.so").getPath
    val c = conf("kaezip").set("spark.shuffle.kae.kaezip.libraryPath", slow)
    val (diagnoses, _) = run(c)(spark => pairsJobs(spark))
    assert(diagnoses.size == 4, diagnoses.map(_.line))
    for (d <- diagnoses) {
      val expected = if (d.kind == "map") ShuffleDoctor.Compress else ShuffleDoctor.Decompress
      assert(d.bound.name == expected, d.line)
      // Relative, not a share of the time: on a busy machine compute takes more of it.
      assert(d.codecTwiceAsFast > d.diskTwiceAsFast, d.line)
    }
  }

  test("a slow disk (0.25 MB/s) is named as the bound of the map stages") {
    val c = conf()
      .set("spark.shuffle.sort.io.plugin.class", classOf[FailingShuffleDataIO].getName)
      .set(FailingShuffleDataIO.MODE, "slow")
    val (diagnoses, _) = run(c)(spark => pairsJobs(spark))
    val maps = diagnoses.filter(_.kind == "map")
    assert(maps.size == 2, diagnoses.map(_.line))
    for (d <- maps) {
      assert(d.bound.name == ShuffleDoctor.DiskWrite, d.line)
      assert(d.diskTwiceAsFast > d.codecTwiceAsFast, d.line)
    }
  }

  for (compress <- Seq(false, true)) {
    test(s"the command replays an event log (compressed: $compress): the live diagnoses, a PNG") {
      val dir = Files.createTempDirectory(
        new File(System.getProperty("java.io.tmpdir")).toPath,
        "eventlog")
      val c = conf("auto")
        .set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", dir.toUri.toString)
        .set("spark.eventLog.compress", compress.toString)
      val (live, _) = run(c)(spark => pairsJobs(spark))
      val logs = Files.list(dir).iterator().asScala.toSeq
      assert(logs.size == 1, logs)
      val report = KaeShuffleDoctor.analyze(logs.head.toString, measureRates = true)
      assert(report.app.startsWith("kae-it-auto"), report.app)
      assert(report.lines.sorted == live.map(_.line).sorted)
      val png = dir.resolve("doctor.png").toFile
      DoctorChart.write(report, png)
      val img = ImageIO.read(png)
      assert(img != null && img.getWidth > 500 && img.getHeight > 100)
    }
  }
}
