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
package ui

import java.util.Locale

import scala.jdk.CollectionConverters._
import scala.xml.{Node, NodeSeq}

import org.apache.spark.shuffle.kae.doctor.{
  Diagnosis,
  DoctorBars,
  KaeStageSummaryListener,
  ShuffleDoctor
}
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics
import org.apache.spark.util.kvstore.KVStore

/**
 * The KAE Shuffle tab's page (docs/metrics.md), from the rows [[KaeUiListener]] wrote: the
 * application's choices, a total per job and a row per stage with the shuffle doctor's bar. Every
 * figure is formatted by the code that writes the driver log's stage summary line
 * ([[KaeStageSummaryListener]]) and diagnosed by the same [[ShuffleDoctor]], so the page, the log
 * line and the accumulators agree. Servlet-free: the per-line page hands it links.
 *
 * @param stageLink the Spark UI address of a stage attempt's page
 */
private[spark] class KaeShufflePageContent(store: KVStore, stageLink: (Int, Int) => String) {
  import KaeShuffleMetrics._
  import KaeStageSummaryListener.{mib, millis, perCall, ratio}

  def render(): Seq[Node] = {
    val stages = store.view(classOf[KaeStageRow]).asScala.toSeq.sortBy(s => (s.stageId, s.attempt))
    application() ++ jobs(stages) ++ stageTable(stages)
  }

  private def application(): Seq[Node] = {
    val app = store.view(classOf[KaeApplicationRow]).asScala.headOption.map(_.started)
    val fallbacks = store.view(classOf[KaeFallbackRow]).asScala.toSeq.sortBy(_.shuffleId)
    val facts: Seq[(String, NodeSeq)] = app match {
      case None => Seq("KAE Shuffle" -> scala.xml.Text("has not served a shuffle yet"))
      case Some(a) => Seq(
          "Spark line" -> scala.xml.Text(a.sparkLine),
          "Codec (driver)" -> <span><strong>{a.codec}</strong>: {a.codecReason}</span>,
          "KAEzip hardware (driver's host)" -> scala.xml.Text(a.hardware),
          "IO encryption" -> scala.xml.Text(if (a.ioEncryption) "on: every frame encrypted"
          else "off"),
          "Settings that differ from the defaults" -> (if (a.settings.isEmpty)
                                                         scala.xml.Text("none (all defaults)")
                                                       else <ul class="list-unstyled mb-0">{
                                                         a.settings.toSeq.sorted.map {
                                                           case (k, v) =>
                                                             <li><code>{k}={v}</code></li>
                                                         }
                                                       }</ul>),
          "Shuffles that fell back to Spark's" -> (if (fallbacks.isEmpty) scala.xml.Text("none")
                                                   else <ul class="list-unstyled mb-0">{
                                                     fallbacks.map(f =>
                                                       <li>shuffle {f.shuffleId}: {f.reason}</li>)
                                                   }</ul>)
        )
    }
    <h4>Application</h4>
    <table class="table table-bordered table-sm" id="kae-application">
      <tbody>{
      facts.map { case (k, v) => <tr><th style="width:22em">{k}</th><td>{v}</td></tr> }
    }</tbody>
    </table>
  }

  private def jobs(stages: Seq[KaeStageRow]): Seq[Node] = {
    val byJob = stages.flatMap(s => s.jobIds.map(_ -> s)).groupBy(_._1).toSeq.sortBy(_._1)
    if (byJob.isEmpty) return Nil
    <h4>Jobs</h4>
    <table class="table table-bordered table-sm table-striped sortable" id="kae-jobs">
      <thead><tr>
        <th>Job</th><th>Stages</th><th>Raw written</th><th>Stored</th><th>Ratio</th>
        <th>Codec calls (write)</th><th>Raw read</th><th>Codec calls (read)</th>
      </tr></thead>
      <tbody>{
      byJob.map { case (job, rows) =>
        val t = rows.map(_._2.totals).reduce(_ + _).kae.withDefaultValue(0L)
        <tr data-job={job.toString}>
            <td>{job}</td>
            <td>{rows.map(r => s"${r._2.stageId}.${r._2.attempt}").mkString(", ")}</td>
            {bytes(t, WriteRawBytes)}{bytes(t, WriteStoredBytes)}
            <td>{ratio(t(WriteRawBytes), t(WriteStoredBytes))}</td>
            {count(t, WriteCodecCalls)}{bytes(t, ReadRawBytes)}{count(t, ReadCodecCalls)}
          </tr>
      }
    }</tbody>
    </table>
  }

  private def stageTable(stages: Seq[KaeStageRow]): Seq[Node] = {
    if (stages.isEmpty) {
      return Seq(<p>No completed stage has written or read a KAE shuffle yet.</p>)
    }
    Seq(<h4>Stages</h4>) ++ legend ++
      <table class="table table-bordered table-sm table-striped sortable" id="kae-stages">
      <thead><tr>
        <th>Stage</th><th>Tasks</th><th>Raw written</th><th>Stored</th><th>Ratio</th>
        <th>Codec calls (write)</th><th>Per call</th><th>Blocks stored raw</th>
        <th title="raw bytes auto wrote with zstd because the disk bounded the map tasks">
          Raw by a stronger codec</th>
        <th>Hardware requests</th><th>Software blocks</th><th>Raw read</th>
        <th>Codec calls (read)</th><th>Window waits</th><th>Bound by</th>
        <th class="sorttable_nosort">Where the tasks' time went</th>
      </tr></thead>
      <tbody>{stages.map(stageRow)}</tbody>
    </table>
  }

  private def stageRow(s: KaeStageRow): Seq[Node] = {
    val totals = s.totals
    val t = totals.kae.withDefaultValue(0L)
    val d = ShuffleDoctor.diagnose(totals, None)
    val software = t(WriteSoftwareBlocks) + t(WriteOverflowBlocks) + t(WriteSmallSoftwareBlocks) +
      t(ReadSoftwareBlocks) + t(ReadOverflowBlocks)
    <tr id={s"stage-${s.stageId}-${s.attempt}"} data-stage={s.stageId.toString}>
      <td sorttable_customkey={(s.stageId * 1000 + s.attempt).toString}>
        <a href={stageLink(s.stageId, s.attempt)}>{s"${s.stageId}.${s.attempt}"}</a>
        <div class="text-muted small">{s.name}</div>
      </td>
      <td data-name="tasks">{s.tasks}</td>{bytes(t, WriteRawBytes)}{bytes(t, WriteStoredBytes)}
      <td>{ratio(t(WriteRawBytes), t(WriteStoredBytes))}</td>
      {count(t, WriteCodecCalls)}
      <td>{perCall(t(WriteRawBytes), t(WriteCodecCalls))}</td>
      {count(t, WriteStoredRawBlocks)}{bytes(t, WriteStrongerRawBytes)}
      <td data-name="hardwareRequests">{t(WriteHardwareRequests) + t(ReadHardwareRequests)}</td>
      <td data-name="softwareBlocks">{software}</td>
      {bytes(t, ReadRawBytes)}{count(t, ReadCodecCalls)}
      <td data-name={short(ReadWaitNanos)} sorttable_customkey={t(ReadWaitNanos).toString}>{
      millis(t(ReadWaitNanos))
    }</td>
      <td data-name="boundBy">{d.map(_.bound.name).getOrElse("-")}</td>
      <td>{d.map(bar).getOrElse(<span class="text-muted">doctor off</span>)}</td>
    </tr>
  }

  /** The doctor's stacked bar: each link's share of the stage's task time, as in its PNG. */
  private def bar(d: Diagnosis): Node = {
    val width = 320.0
    val segments = DoctorBars.segments(d)
    val lefts = segments.scanLeft(0.0)(_ + _.share * width)
    <svg width={width.toInt.toString} height="16" class="kae-doctor-bar" role="img">
      <title>{d.line}</title>
      {
      segments.zip(lefts).map { case (seg, x) =>
        <rect x={fmt(x)} y="0" width={fmt(seg.share * width)} height="16"
                fill={DoctorBars.css(seg.link)} data-link={seg.link}
                data-share={fmt(seg.share)}>
            <title>{
          s"${seg.link} ${ShuffleDoctor.pct(seg.share)} (${ShuffleDoctor.seconds(seg.nanos)})"
        }</title>
          </rect>
      }
    }
    </svg>
  }

  private def legend: Seq[Node] =
    <p id="kae-legend">{
      ShuffleDoctor.Links.map { l =>
        <span style="margin-right:1em">
          <svg width="12" height="12"><rect width="12" height="12" fill={DoctorBars.css(l)}/></svg>
          {l}
        </span>
      }
    }</p>

  // Cells of a count carry its short name (write.rawBytes), for scripts and the browser test.
  private def bytes(t: Map[String, Long], name: String): Node =
    <td data-name={short(name)} sorttable_customkey={t(name).toString}>{mib(t(name))}</td>

  private def count(t: Map[String, Long], name: String): Node =
    <td data-name={short(name)}>{t(name)}</td>

  private def short(name: String): String = name.stripPrefix(Prefix)

  private def fmt(v: Double): String = "%.2f".formatLocal(Locale.ROOT, v)
}
