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

import java.io.{BufferedReader, InputStream, InputStreamReader}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}
import java.util.Locale

import scala.jdk.CollectionConverters._
import scala.util.Using

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.github.luben.zstd.ZstdInputStream

/**
 * How much of a job's task time its shuffle took, by Spark's own metrics, from the event logs of
 * a benchmark's runs (`spark.eventLog.enabled=true` and `spark.eventLog.dir` in
 * `-Dbench.settings`): per cell and configuration, the medians over the runs of the application's
 * time, the tasks' run time, the shuffle write time and the reduce tasks' fetch waits. Under
 * Spark's own shuffle, the last two over the run time bound what a shuffle that cost nothing could
 * save beyond its codec's CPU, which Spark's write time leaves out (it times the file's writes,
 * after the codec stream). A configuration is named by its manager and codec, as the benchmarks
 * name theirs (`kae-auto`, `spark-lz4`; Spark's lz4 under a second name counts as `spark-lz4`).
 * Prints a Markdown table.
 */
object EventLogShare {

  /** One application's totals, from its event log. */
  final case class App(
      cell: String,
      config: String,
      millis: Long,
      runMillis: Long,
      shuffleWriteNanos: Long,
      fetchWaitMillis: Long)

  private val Json = new ObjectMapper()

  def main(args: Array[String]): Unit = {
    require(args.length == 1, "usage: EventLogShare <spark.eventLog.dir of the runs>")
    print(table(read(Paths.get(args(0)))))
  }

  /** Every finished application under `dir`: rolling logs (a directory each) or single files. */
  def read(dir: Path): Seq[App] = {
    require(Files.isDirectory(dir), s"no event log directory at $dir")
    Using.resource(Files.list(dir))(_.iterator.asScala.toList).sorted.flatMap { entry =>
      val files =
        if (Files.isDirectory(entry)) {
          val all =
            Using.resource(Files.list(entry))(_.iterator.asScala.map(_.getFileName.toString).toList)
          // Spark marks a rolling log being written by its status file's name.
          if (all.exists(f => f.startsWith("appstatus_") && f.endsWith(".inprogress"))) Nil
          else all.filter(_.startsWith("events_")).sortBy(rollingIndex).map(entry.resolve)
        } else Seq(entry)
      app(files.flatMap(lines))
    }
  }

  /** A rolling log's files in the order Spark wrote them: `events_<n>_<app id>[.codec]`. */
  private def rollingIndex(name: String): Int = name.split('_')(1).toInt

  /** A log still being written is left out: its application has not finished. */
  private def lines(file: Path): Seq[JsonNode] = {
    val name = file.getFileName.toString
    if (name.endsWith(".inprogress")) Nil
    else
      Using.resource(new BufferedReader(new InputStreamReader(
        open(file, name),
        StandardCharsets.UTF_8))) {
        r =>
          Iterator.continually(r.readLine()).takeWhile(_ != null).map(l => Json.readTree(l)).toList
      }
  }

  private def open(file: Path, name: String): InputStream = {
    require(
      name.endsWith(".zstd") || !name.contains('.'),
      s"$file: only uncompressed and zstd event logs are read here (zstd is Spark's default)")
    val raw = Files.newInputStream(file)
    if (name.endsWith(".zstd")) new ZstdInputStream(raw) else raw
  }

  /** None for an application that did not finish: its times are not whole. */
  private def app(events: Seq[JsonNode]): Option[App] = {
    def times(kind: String) =
      events.filter(_.path("Event").asText == kind).map(_.path("Timestamp").asLong)
    val env = events.find(_.path("Event").asText == "SparkListenerEnvironmentUpdate")
    val tasks =
      events.filter(_.path("Event").asText == "SparkListenerTaskEnd").map(_.path("Task Metrics"))
    for {
      start <- times("SparkListenerApplicationStart").headOption
      end <- times("SparkListenerApplicationEnd").headOption
      e <- env
    } yield App(
      cell(e),
      config(e.path("Spark Properties")),
      end - start,
      tasks.map(_.path("Executor Run Time").asLong).sum,
      tasks.map(_.path("Shuffle Write Metrics").path("Shuffle Write Time").asLong).sum,
      tasks.map(_.path("Shuffle Read Metrics").path("Fetch Wait Time").asLong).sum
    )
  }

  /** ScaleApp's cell from its last two arguments (workload, bytes); else the application's name. */
  private def cell(env: JsonNode): String = {
    val command = env.path("System Properties").path("sun.java.command").asText.split(' ')
    if (command.exists(_.endsWith("ScaleApp")) && command.length >= 2) {
      val Array(workload, bytes) = command.takeRight(2)
      s"$workload@$bytes"
    } else env.path("Spark Properties").path("spark.app.name").asText("?")
  }

  private def config(props: JsonNode): String = {
    def get(key: String, default: String) = props.path(key).asText(default)
    if (get("spark.shuffle.manager", "sort").contains("Kae"))
      "kae-" + get("spark.shuffle.kae.codec", "auto")
    else "spark-" + get("spark.io.compression.codec", "lz4")
  }

  def table(apps: Seq[App]): String = {
    val header =
      "| cell | configuration | runs | application, s | tasks' run time, s | shuffle write time, s " +
        "| fetch wait, s | write + wait over run time |\n|---|---|---|---|---|---|---|---|\n"
    header + apps.groupBy(a => (a.cell, a.config)).toSeq.sortBy(_._1).map { case ((c, cf), as) =>
      val run = median(as.map(_.runMillis / 1e3))
      val write = median(as.map(_.shuffleWriteNanos / 1e9))
      val wait = median(as.map(_.fetchWaitMillis / 1e3))
      val share = if (run > 0) 100 * (write + wait) / run else 0.0
      Seq(
        c,
        cf,
        as.size.toString,
        f2(median(as.map(_.millis / 1e3))),
        f2(run),
        f2(write),
        f2(wait),
        f"$share%.1f%%")
        .mkString("| ", " | ", " |")
    }.mkString("", "\n", "\n")
  }

  private def f2(x: Double) = String.format(Locale.ROOT, "%.2f", Double.box(x))

  private def median(v: Seq[Double]): Double = Harness.median(v)
}
