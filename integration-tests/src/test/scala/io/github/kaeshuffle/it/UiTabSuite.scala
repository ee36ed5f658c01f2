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
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.{ConcurrentHashMap, ConcurrentLinkedQueue}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.Success
import org.apache.spark.deploy.history.KaeHistoryServer
import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * The KAE Shuffle tab, live and in Spark's History Server, loaded by a real browser (headless
 * Chromium): every stage's figures on the page are the stage's successful tasks' accumulator
 * updates, formatted as the stage summary line formats them, and its bound is the shuffle
 * doctor's. Screenshots go to target/screenshots (and docs/images with -Dkae.docs.write=true).
 */
class UiTabSuite extends AnyFunSuite {
  private val tmp = Paths.get(System.getProperty("java.io.tmpdir"))

  test("the tab shows each stage's counts and bound, live and from the event log, in Chromium") {
    if (Chromium.binary.isEmpty) cancel(Chromium.Missing)
    val logDir = Files.createTempDirectory(tmp, "kae-eventlog")
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local[2]")
      .set("spark.ui.enabled", "true")
      .set("spark.ui.port", "0")
      .set("spark.eventLog.enabled", "true")
      .set("spark.eventLog.dir", logDir.toUri.toString)
      .set("spark.ui.filters", LinkFilter)
    val perStage = new ConcurrentHashMap[(Int, Int), Map[String, Long]]()
    val accumulators = new ConcurrentHashMap[Long, Map[String, Long]]()
    val diagnoses = new ConcurrentLinkedQueue[String]()
    val (appId, liveDom) = Sessions.withSession(conf) { spark =>
      val sc = spark.sparkContext
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit = if (e.reason == Success) {
          perStage.merge(
            (e.stageId, e.stageAttemptId),
            KaeSparkAccess.kaeCounts(e.taskInfo),
            KaeSparkAccess.sumCounts)
        }
        override def onStageCompleted(e: SparkListenerStageCompleted): Unit =
          accumulators.putAll(KaeSparkAccess.kaeAccumulators(e.stageInfo).asJava)
      })
      KaeSparkAccess.onDiagnoses(sc)(diagnoses.add)
      for (w <- Seq("sort", "groupby-skew-sql")) WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)
      KaeSparkAccess.drainListeners(sc)
      val url = sc.uiWebUrl.get + "/kaeshuffle/"
      val dom = Chromium.dom(url)
      Chromium.screenshot(url, screenshots.resolve("kae-shuffle-tab-live.png"))
      checkStageLinks(sc.uiWebUrl.get, perStage.keySet.asScala.toSeq, "live")
      (sc.applicationId, dom)
    }
    val stages = perStage.asScala.toMap.filter(_._2.nonEmpty)
    assert(stages.size >= 4, s"stages with KAE counts: ${stages.keys}")
    // The stages' sums are the accumulators' totals: nothing counted twice or left out.
    val totalCalls = stages.values.map(_.getOrElse("kae.shuffle.write.codecCalls", 0L)).sum
    assert(totalCalls == accumulators.values.asScala
      .map(_.getOrElse("kae.shuffle.write.codecCalls", 0L)).sum)
    checkPage(liveDom, stages, diagnoses.asScala.toSeq, "live")

    val server =
      KaeHistoryServer.start(
        logDir.toUri.toString,
        // A disk-backed store, as production History Servers keep: the rows go through JSON.
        Map(
          "spark.ui.filters" -> LinkFilter,
          "spark.history.store.path" -> Files.createTempDirectory(tmp, "kae-store").toString)
      )
    try {
      val url = s"${server.webUrl}/history/$appId/kaeshuffle/"
      val dom = Chromium.dom(url)
      // Byte-identical to the live one (docs/metrics.md), so it stays beside the build.
      Chromium.screenshot(url, Paths.get("target", "screenshots", "kae-shuffle-tab-history.png"))
      checkPage(dom, stages, diagnoses.asScala.toSeq, "History Server")
      checkStageLinks(s"${server.webUrl}/history/$appId", stages.keys.toSeq, "History Server")
    } finally server.stop()
  }

  test("a shuffle that fell back is named on the tab") {
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local[2]")
      .set("spark.ui.enabled", "true")
      .set("spark.ui.port", "0")
      .set("spark.shuffle.kae.enabled", "false")
    Sessions.withSession(conf) { spark =>
      val sc = spark.sparkContext
      sc.parallelize(1 to 1000, 2).map(i => (i % 10, i)).groupByKey().count()
      KaeSparkAccess.drainListeners(sc)
      val page = fetch(sc.uiWebUrl.get + "/kaeshuffle/")
      assert(page.contains("shuffle 0: spark.shuffle.kae.enabled=false"), page)
      assert(page.contains("No completed stage has written or read a KAE shuffle yet."))
    }
  }

  private def checkPage(
      dom: String,
      stages: Map[(Int, Int), Map[String, Long]],
      diagnoses: Seq[String],
      where: String): Unit = {
    assert(dom.contains("KAE Shuffle"), s"$where: no tab in\n$dom")
    assert(dom.contains("spark.shuffle.kae.blockSize=16k"), s"$where: settings not shown")
    assert(!dom.contains("spark.shuffle.kae.codec=auto"), s"$where: a default shown as a change")
    for (((stage, attempt), counts) <- stages) {
      val c = counts.withDefaultValue(0L)
      val row = rowOf(dom, s"stage-$stage-$attempt")
        .getOrElse(fail(s"$where: no row for stage $stage.$attempt in\n$dom"))
      assert(cell(row, "write.codecCalls") == c("kae.shuffle.write.codecCalls").toString, where)
      assert(cell(row, "read.codecCalls") == c("kae.shuffle.read.codecCalls").toString, where)
      assert(cell(row, "write.rawBytes") == KaeSparkAccess.mib(c("kae.shuffle.write.rawBytes")))
      assert(cell(row, "read.rawBytes") == KaeSparkAccess.mib(c("kae.shuffle.read.rawBytes")))
      assert(cell(row, "write.strongerRawBytes") ==
        KaeSparkAccess.mib(c("kae.shuffle.write.strongerRawBytes")))
      val bound = diagnoses.find(_.contains(s"stage $stage.$attempt "))
        .map(_.replaceAll(".* -> bound by ([^;]+);.*", "$1"))
      assert(bound.contains(cell(row, "boundBy")), s"$where: stage $stage.$attempt: $bound")
      assert(row.contains("<svg"), s"$where: no doctor bar for stage $stage.$attempt")
    }
  }

  /** Spark's stage page of each stage, with the opt-in filter, links to the stage's row. */
  private def checkStageLinks(ui: String, stages: Seq[(Int, Int)], where: String): Unit =
    for ((stage, attempt) <- stages) {
      val page = fetch(s"$ui/stages/stage/?id=$stage&attempt=$attempt")
      assert(
        page.contains(s"""href="../../kaeshuffle/#stage-$stage-$attempt""""),
        s"$where: Spark's page of stage $stage.$attempt has no link to the tab:\n$page")
    }

  private def fetch(url: String): String =
    new String(new URI(url).toURL.openStream().readAllBytes(), StandardCharsets.UTF_8)

  private val LinkFilter = "org.apache.spark.shuffle.kae.KaeStageLinkFilter"

  private def rowOf(dom: String, id: String): Option[String] = {
    val start = dom.indexOf(s"""<tr id="$id"""")
    if (start < 0) None else Some(dom.substring(start, dom.indexOf("</tr>", start)))
  }

  private def cell(row: String, name: String): String = {
    val r =
      ("""data-name="""" + java.util.regex.Pattern.quote(name) + """"[^>]*>\s*([^<]*?)\s*<""").r
    r.findFirstMatchIn(row).map(_.group(1)).getOrElse(fail(s"no cell $name in $row"))
  }

  private def screenshots: Path =
    if (sys.props.get("kae.docs.write").contains("true")) {
      Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs"), "images")
    } else Paths.get("target", "screenshots")
}
