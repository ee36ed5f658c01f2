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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import com.github.luben.zstd.ZstdOutputStream
import org.scalatest.funsuite.AnyFunSuite

class EventLogShareSuite extends AnyFunSuite {
  private def env(manager: Option[String], command: String): String =
    s"""{"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"spark.app.name":"job"${manager
        .fold("")(m =>
          s""","spark.shuffle.manager":"$m"""")}},"System Properties":{"sun.java.command":"$command"}}"""

  private def task(runMs: Long, writeNs: Long, waitMs: Long): String =
    s"""{"Event":"SparkListenerTaskEnd","Task Metrics":{"Executor Run Time":$runMs,""" +
      s""""Shuffle Write Metrics":{"Shuffle Write Time":$writeNs},"Shuffle Read Metrics":{"Fetch Wait Time":$waitMs}}}"""

  private def app(start: Long, end: Option[Long], lines: String*): Seq[String] =
    s"""{"Event":"SparkListenerApplicationStart","Timestamp":$start}""" +: lines ++:
      end.map(e => s"""{"Event":"SparkListenerApplicationEnd","Timestamp":$e}""").toSeq

  private def write(file: Path, lines: Seq[String], zstd: Boolean): Unit = {
    val bytes = lines.mkString("", "\n", "\n").getBytes(StandardCharsets.UTF_8)
    if (!zstd) Files.write(file, bytes)
    else {
      val out = new ZstdOutputStream(Files.newOutputStream(file))
      try out.write(bytes)
      finally out.close()
    }
  }

  private val ScaleApp =
    "SparkSubmit --class io.github.kaeshuffle.deploy.ScaleApp app.jar report.txt sort 320000000"

  test("rolling zstd logs and single files give each application's totals; unfinished ones are left out") {
    val dir = Files.createTempDirectory("eventlogs")
    val rolling = Files.createDirectory(dir.resolve("eventlog_v2_app-1"))
    val first =
      app(1000, Some(21000), env(Some("org.apache.spark.shuffle.kae.KaeShuffleManager"), ScaleApp))
    // The rolling log's second file holds the tasks and the end: files are read in their order.
    write(rolling.resolve("events_1_app-1.zstd"), first.dropRight(1), zstd = true)
    write(
      rolling.resolve("events_2_app-1.zstd"),
      Seq(task(8000, 500000000L, 100), task(2000, 0, 400), first.last),
      zstd = true)
    Files.createFile(rolling.resolve("appstatus_app-1"))
    write(
      dir.resolve("app-2"),
      app(0, Some(10000), env(None, ScaleApp), task(10000, 200000000L, 300)),
      zstd = false)
    val running = Files.createDirectory(dir.resolve("eventlog_v2_app-3"))
    write(running.resolve("events_1_app-3.zstd"), app(0, None, env(None, ScaleApp)), zstd = true)
    Files.createFile(running.resolve("appstatus_app-3.inprogress"))
    write(dir.resolve("app-4.inprogress"), app(0, None, env(None, "x")), zstd = false)

    val apps = EventLogShare.read(dir).sortBy(_.config)
    assert(
      apps == Seq(
        EventLogShare.App("sort@320000000", "kae-auto", 20000, 10000, 500000000L, 500),
        EventLogShare.App("sort@320000000", "spark-lz4", 10000, 10000, 200000000L, 300)))
    val table = EventLogShare.table(apps)
    assert(
      table.contains("| sort@320000000 | kae-auto | 1 | 20.00 | 10.00 | 0.50 | 0.50 | 10.0% |"),
      table)
    assert(
      table.contains("| sort@320000000 | spark-lz4 | 1 | 10.00 | 10.00 | 0.20 | 0.30 | 5.0% |"),
      table)
  }

  test("a log in a codec it cannot read is refused by name, not misread") {
    val dir = Files.createTempDirectory("eventlogs")
    Files.write(dir.resolve("app-1.lz4"), Array[Byte](1, 2, 3))
    val e = intercept[IllegalArgumentException](EventLogShare.read(dir))
    assert(e.getMessage.contains("app-1.lz4") && e.getMessage.contains("zstd"))
  }

  test("the medians it takes, Harness's: the middle value, or the mean of the two middle ones") {
    assert(Harness.median(Seq(3.0, 1.0, 2.0)) == 2.0)
    assert(Harness.median(Seq(4.0, 1.0, 2.0, 3.0)) == 2.5)
    assert(Harness.median(Nil).isNaN)
  }
}
