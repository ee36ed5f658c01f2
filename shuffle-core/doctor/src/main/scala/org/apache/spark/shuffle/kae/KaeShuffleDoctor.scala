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

import java.awt.{BasicStroke, Color, Font, RenderingHints}
import java.awt.image.BufferedImage
import java.io.File
import java.util.Locale
import javax.imageio.ImageIO

import scala.collection.mutable.ArrayBuffer
import scala.util.Try

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path

import org.apache.spark.SparkConf
import org.apache.spark.deploy.history.EventLogFileReader
import org.apache.spark.scheduler.{
  ReplayListenerBus,
  SparkListener,
  SparkListenerApplicationStart,
  SparkListenerEnvironmentUpdate
}
import org.apache.spark.shuffle.kae.doctor.{
  CodecRates,
  Diagnosis,
  DoctorChart,
  KaeStageSummaryListener,
  ReferenceRates
}
import org.apache.spark.util.Utils

/**
 * The shuffle doctor on a finished application: replays a Spark event log through the same
 * listener that diagnoses stages live, prints one diagnosis per stage and draws a PNG of the link
 * times per stage (docs/tuning.md).
 *
 * Run with the deployable jar and Spark's jars on the class path (docs/tuning.md has the command):
 * `KaeShuffleDoctor <event log> [--png <file.png>] [--no-rates]`.
 *
 * The event log is a file (compressed or not) or a rolling event log directory, on any Hadoop
 * file system the class path can reach. `--no-rates` skips measuring the codec on this machine.
 */
object KaeShuffleDoctor {

  /** One application's diagnoses. */
  private[spark] case class Report(app: String, lines: Seq[String], diagnoses: Seq[Diagnosis])

  private val Usage =
    "Usage: KaeShuffleDoctor <event log file or directory> [--png <file.png>] [--no-rates]"

  /** The command's arguments. */
  private case class Options(log: String, png: Option[String], rates: Boolean)

  def main(args: Array[String]): Unit = parse(args).foreach { options =>
    val report =
      try analyze(options.log, options.rates)
      catch {
        case e: IllegalArgumentException =>
          System.err.println(e.getMessage)
          sys.exit(1)
      }
    println(s"Application: ${report.app}")
    if (report.diagnoses.isEmpty) {
      println("No stage of this application carries KAE Shuffle link times: it needs " +
        "spark.shuffle.manager=org.apache.spark.shuffle.kae.KaeShuffleManager and " +
        "spark.shuffle.kae.doctor.enabled=true (the default).")
    }
    report.lines.foreach(println)
    options.png.foreach { p =>
      DoctorChart.write(report, new File(p))
      println(s"Chart: $p")
    }
  }

  /** Parses the command line; exits with 2 on a bad one, None after printing the usage. */
  private def parse(args: Array[String]): Option[Options] = {
    var png: Option[String] = None
    var rates = true
    val logs = ArrayBuffer[String]()
    var i = 0
    while (i < args.length) {
      args(i) match {
        case "--png" if i + 1 < args.length =>
          png = Some(args(i + 1))
          i += 1
        case "--no-rates" => rates = false
        case "-h" | "--help" =>
          println(Usage)
          return None
        case a if a.startsWith("--") =>
          System.err.println(s"Unknown option $a. $Usage")
          sys.exit(2)
        case a => logs += a
      }
      i += 1
    }
    if (logs.size != 1) {
      System.err.println(Usage)
      sys.exit(2)
    }
    Some(Options(logs.head, png, rates))
  }

  /** Replays the event log at `location` and diagnoses its stages. */
  private[spark] def analyze(location: String, measureRates: Boolean): Report = {
    val path = new Path(location)
    val fs = path.getFileSystem(new Configuration())
    if (!fs.exists(path)) {
      throw new IllegalArgumentException(s"No event log at $location.")
    }
    val reader = EventLogFileReader(fs, path).getOrElse(throw new IllegalArgumentException(
      s"$location is not a Spark event log (a file, or a rolling event log directory)."))
    var props = Map.empty[String, String]
    var app = path.getName
    val lines = ArrayBuffer[String]()
    val diagnoses = ArrayBuffer[Diagnosis]()
    val bus = new ReplayListenerBus()
    bus.addListener(new SparkListener {
      override def onEnvironmentUpdate(e: SparkListenerEnvironmentUpdate): Unit =
        props = e.environmentDetails.getOrElse("Spark Properties", Nil).toMap
      override def onApplicationStart(e: SparkListenerApplicationStart): Unit =
        app = s"${e.appName} (${e.appId.getOrElse(path.getName)})"
    })
    // The codec the application used, as its properties name it, measured on this machine.
    def rates(): Option[ReferenceRates] = if (!measureRates) None
    else Try {
      val conf = new SparkConf(false).setAll(props.filter(_._1.startsWith(KaeShuffleConf.PREFIX)))
      CodecRates.of(KaeShuffleSettings.codecOptions(conf))
    }.toOption
    bus.addListener(new KaeStageSummaryListener(
      summaries = false,
      doctor = true,
      rates = () => rates(),
      out = line => lines += line,
      onDiagnosis = d => diagnoses += d))
    val files = reader.listEventLogFiles
    files.zipWithIndex.foreach { case (f, n) =>
      Utils.tryWithResource(EventLogFileReader.openEventLog(f.getPath, fs)) { in =>
        bus.replay(
          in,
          f.getPath.toString,
          maybeTruncated = n == files.size - 1 && !reader.completed)
      }
    }
    Report(app, lines.toSeq, diagnoses.toSeq)
  }
}
