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

import java.nio.file.{Files, Paths}

import scala.util.Using

import org.scalatest.concurrent.Eventually._
import org.scalatest.funsuite.AnyFunSuite
import org.scalatest.time.SpanSugar._

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * A real Prometheus (Debian's, unpacked by the build) scrapes a running application the way
 * docs/metrics.md says: the driver's `PrometheusServlet` (the application's totals) and an
 * executor's `JmxSink` through Prometheus's JMX exporter agent, with the exporter configuration
 * the docs give. Queried over Prometheus's HTTP API, every counter has the value the shuffles'
 * accumulators hold, and every query of the Grafana dashboard returns data.
 */
class PrometheusSuite extends AnyFunSuite {
  private val Namespace = "kaetest"

  test("Prometheus scrapes the driver and an executor: our counters, and the dashboard's data") {
    val binary = Sessions.prometheusBinary.getOrElse(
      cancel("no Prometheus here: apt-get could not fetch Debian's package (prometheus.sh)"))
    val agent = Paths.get(sys.props.getOrElse("kae.test.jmxAgent", "target/agents/none.jar"))
    assume(Files.exists(agent), s"$agent is missing: run the tests through Maven")
    val uiPort = PrometheusServer.freePort()
    val agentPort = PrometheusServer.freePort()
    val exporter = Files.createTempFile("kae-jmx-exporter", ".yaml")
    Files.writeString(exporter, MetricsDocs.jmxExporterConfig)
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local-cluster[1,1,1024]")
      .set("spark.executor.memory", "512m")
      .set("spark.ui.enabled", "true")
      .set("spark.ui.port", uiPort.toString)
      .set("spark.metrics.namespace", Namespace)
      .set(
        "spark.metrics.conf.*.sink.prometheusServlet.class",
        "org.apache.spark.metrics.sink.PrometheusServlet")
      .set("spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus")
      .set("spark.metrics.conf.executor.sink.jmx.class", "org.apache.spark.metrics.sink.JmxSink")
    conf.set(
      "spark.executor.extraJavaOptions",
      (conf.getOption("spark.executor.extraJavaOptions").toSeq :+
        s"-javaagent:$agent=127.0.0.1:$agentPort:$exporter").mkString(" ")
    )
    val targets = Seq(
      ("spark-driver", s"127.0.0.1:$uiPort", "/metrics/prometheus"),
      ("spark-executors", s"127.0.0.1:$agentPort", "/metrics"))
    Using.resource(new PrometheusServer(binary, targets)) { prometheus =>
      prometheus.awaitReady()
      Sessions.withTestingMode {
        Sessions.withSession(conf) { spark =>
          val counts = new KaeCountTotals(spark)
          eventually(timeout(90.seconds), interval(1.second)) {
            val up = prometheus.query("up")
            assert(up.count(_._2 == 1.0) == 2, s"targets up: $up")
          }
          counts.runWorkloads()
          val expected = counts.totals()
          assert(expected("kae.shuffle.write.codecCalls") > 0)

          eventually(timeout(60.seconds), interval(1.second)) {
            for (name <- KaeSparkAccess.countNames) {
              val metric = name.stripPrefix("kae.shuffle.").replace('.', '_')
              val driver = prometheus.query(
                s"metrics_${Namespace}_driver_KaeShuffleApplication_${metric}_Count")
              assert(driver.map(_._2) == Seq(expected(name).toDouble), s"$name from the driver")
              val executors = prometheus.query(
                s"""sum(kae_shuffle_executor_$metric{namespace="$Namespace"})""")
              assert(executors.map(_._2) == Seq(expected(name).toDouble), s"$name from executors")
            }
          }
          val dashboard = Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs"))
            .resolve("grafana/kae-shuffle-dashboard.json")
          val queries = PrometheusServer.dashboardQueries(dashboard)
          assert(queries.size >= 10, s"dashboard queries: $queries")
          // rate() needs two scrapes of a series inside its window: wait for them.
          eventually(timeout(60.seconds), interval(1.second)) {
            for (q <- queries) {
              val expr = q.replace("$" + "{namespace}", Namespace)
              assert(prometheus.query(expr).nonEmpty, s"no data for the dashboard's $expr")
            }
          }
          info(s"${KaeSparkAccess.countNames.size} counters equal from the driver and the " +
            s"executor; ${queries.size} dashboard queries returned data")
        }
      }
    }
  }
}

/** What docs/metrics.md gives operators, read from the page so that the test runs what it says. */
private object MetricsDocs {

  /** The JMX exporter configuration: the YAML block after the page's marker comment. */
  lazy val jmxExporterConfig: String = {
    val page = Files.readString(
      Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs")).resolve("metrics.md"))
    val marker = "# jmx-exporter-config"
    val start = page.indexOf(marker)
    require(start >= 0, s"docs/metrics.md has no block starting with '$marker'")
    page.substring(start, page.indexOf("```", start))
  }
}
