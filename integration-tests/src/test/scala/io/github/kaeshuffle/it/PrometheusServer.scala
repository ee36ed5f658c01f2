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

import java.io.File
import java.net.{HttpURLConnection, ServerSocket, URI, URLEncoder}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}

/**
 * A Prometheus server of a test's own, on loopback: a generated configuration that scrapes the
 * given targets every second, a storage directory of its own, and its HTTP API's instant
 * queries. Nothing outside the test's temporary directory is touched; closing stops it.
 *
 * @param targets each scrape job: its name, host:port and metrics path
 */
final class PrometheusServer(binary: String, targets: Seq[(String, String, String)])
  extends AutoCloseable {
  private val dir = Files.createTempDirectory("kae-prometheus")
  val port: Int = PrometheusServer.freePort()
  private val log = dir.resolve("prometheus.log").toFile
  private val process = start()

  private def start(): Process = {
    val config = dir.resolve("prometheus.yml")
    val jobs = targets.map { case (job, target, path) =>
      s"""  - job_name: $job
         |    metrics_path: $path
         |    static_configs:
         |      - targets: ['$target']
         |""".stripMargin
    }
    Files.writeString(
      config,
      "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n" +
        jobs.mkString)
    val cmd = Seq(
      binary,
      s"--config.file=$config",
      s"--storage.tsdb.path=${dir.resolve("data")}",
      s"--web.listen-address=127.0.0.1:$port")
    new ProcessBuilder(cmd.asJava).redirectErrorStream(true)
      .redirectOutput(log).start()
  }

  private def get(path: String): (Int, String) = {
    val c = new URI(s"http://127.0.0.1:$port$path").toURL.openConnection()
      .asInstanceOf[HttpURLConnection]
    c.setConnectTimeout(2000)
    c.setReadTimeout(10000)
    try {
      val code = c.getResponseCode
      val in = if (code < 400) c.getInputStream else c.getErrorStream
      (code, if (in == null) "" else new String(in.readAllBytes(), StandardCharsets.UTF_8))
    } finally c.disconnect()
  }

  /** Waits until the server answers ready; fails with its log when it does not in time. */
  def awaitReady(seconds: Int = 60): Unit = {
    val end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
    while (System.nanoTime() < end) {
      assert(process.isAlive, s"Prometheus ended: ${logText()}")
      if (scala.util.Try(get("/-/ready")._1).toOption.contains(200)) return
      Thread.sleep(200)
    }
    throw new AssertionError(s"Prometheus was not ready in $seconds s: ${logText()}")
  }

  /** An instant query's samples now: each series' labels and value (NaN included). */
  def query(expr: String): Seq[(Map[String, String], Double)] = {
    val (code, body) =
      get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8))
    assert(code == 200, s"query $expr: HTTP $code $body")
    val json = PrometheusServer.Json.readTree(body)
    assert(json.path("status").asText() == "success", s"query $expr: $body")
    json.path("data").path("result").elements().asScala.toSeq.map { r =>
      val labels = r.path("metric").fields().asScala.map(e => e.getKey -> e.getValue.asText()).toMap
      labels -> r.path("value").get(1).asText().toDouble
    }
  }

  private def logText(): String =
    if (log.exists()) Files.readString(log.toPath).takeRight(4000) else "(no log)"

  override def close(): Unit = {
    process.destroy()
    if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly()
    deleteTree(dir.toFile)
  }

  private def deleteTree(f: File): Unit = {
    Option(f.listFiles()).foreach(_.foreach(deleteTree))
    f.delete()
  }
}

object PrometheusServer {
  private val Json = new ObjectMapper()

  /** A port free on loopback now (the caller binds it soon after). */
  def freePort(): Int = {
    val s = new ServerSocket(0)
    try s.getLocalPort
    finally s.close()
  }

  /** Every `expr` in a Grafana dashboard's JSON, in order. */
  def dashboardQueries(dashboard: Path): Seq[String] = {
    def exprs(n: JsonNode): Seq[String] =
      if (n.isObject)
        n.fields().asScala.toSeq.flatMap { e =>
          if (e.getKey == "expr" && e.getValue.isTextual) Seq(e.getValue.asText())
          else exprs(e.getValue)
        }
      else if (n.isArray) n.elements().asScala.toSeq.flatMap(exprs)
      else Nil
    exprs(Json.readTree(dashboard.toFile))
  }
}
