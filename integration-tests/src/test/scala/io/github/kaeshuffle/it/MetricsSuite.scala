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

import java.net.URI
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.scalatest.concurrent.Eventually._
import org.scalatest.funsuite.AnyFunSuite
import org.scalatest.time.SpanSugar._

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * KAE Shuffle's metrics sources through Spark's own sinks, in local-cluster (separate executor
 * JVMs): the driver's `PrometheusServlet`, scraped over HTTP, shows the application's totals, and
 * each executor's CSV sink its tasks' counts; both equal the shuffles' accumulators.
 */
class MetricsSuite extends AnyFunSuite {

  test("Prometheus servlet and executors' sinks publish the counts the accumulators hold") {
    val csvDir = Files.createTempDirectory("kae-metrics-csv")
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local-cluster[2,1,1024]")
      .set("spark.executor.memory", "512m")
      .set("spark.ui.enabled", "true")
      .set("spark.ui.port", "0")
      .set(
        "spark.metrics.conf.*.sink.prometheusServlet.class",
        "org.apache.spark.metrics.sink.PrometheusServlet")
      .set("spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus")
      .set("spark.metrics.conf.executor.sink.csv.class", "org.apache.spark.metrics.sink.CsvSink")
      .set("spark.metrics.conf.executor.sink.csv.period", "1")
      .set("spark.metrics.conf.executor.sink.csv.unit", "seconds")
      .set("spark.metrics.conf.executor.sink.csv.directory", csvDir.toString)
    Sessions.withTestingMode {
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val counts = new KaeCountTotals(spark)
        counts.runWorkloads()
        val expected = counts.totals()
        assert(
          expected("kae.shuffle.write.codecCalls") > 0 && expected("kae.shuffle.read.rawBytes") > 0)

        val scraped = prometheus(sc.uiWebUrl.get + "/metrics/prometheus", sc.applicationId)
        for (name <- KaeSparkAccess.countNames) {
          assert(scraped.get(short(name)).contains(expected(name)), s"$name in Prometheus")
        }
        info(s"scraped ${scraped.size} KaeShuffleApplication counters, e.g. write.codecCalls=" +
          scraped(short("kae.shuffle.write.codecCalls")))

        // Every executor's tasks' counts, as its CSV sink last wrote them, add up to the totals.
        eventually(timeout(30.seconds), interval(500.millis)) {
          for (name <- KaeSparkAccess.countNames) {
            assert(executorsCsv(csvDir, sc.applicationId, short(name)) == expected(name), name)
          }
        }
      }
    }
  }

  private def short(name: String): String = name.stripPrefix("kae.shuffle.")

  /** The driver's `KaeShuffleApplication` counters in Prometheus's text, by short name. */
  private def prometheus(url: String, appId: String): Map[String, Long] = {
    val text = new String(
      new URI(url).toURL.openStream().readAllBytes(),
      StandardCharsets.UTF_8)
    val prefix =
      "metrics_" + s"$appId.driver.KaeShuffleApplication.".replaceAll("[^a-zA-Z0-9]", "_")
    val line = ("^" + java.util.regex.Pattern.quote(prefix) +
      """(\w+)_Count\{type="counters"\} (\d+)$""").r
    text.split("\n").toSeq.collect { case line(name, v) => name -> v.toLong }
      .map { case (n, v) => shortOf(n) -> v }.toMap
  }

  /** `write_codecCalls` back to `write.codecCalls` (Prometheus's names have no dots). */
  private def shortOf(normalized: String): String = normalized.replaceFirst("_", ".")

  /** A counter's last value in the CSV sink of every executor of the application, summed. */
  private def executorsCsv(dir: Path, appId: String, name: String): Long = {
    val files = Files.list(dir).iterator.asScala.toSeq
      .filter(_.getFileName.toString.startsWith(appId + "."))
      .filter(_.getFileName.toString.endsWith(s".KaeShuffle.$name.csv"))
    files.map { f =>
      val lines = Files.readAllLines(f).asScala.filter(_.nonEmpty)
      if (lines.size < 2) 0L else lines.last.split(",")(1).trim.toLong
    }.sum
  }
}
