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
import org.apache.spark.scheduler.{ReplayListenerBus, SparkListener,
  SparkListenerApplicationStart, SparkListenerEnvironmentUpdate}
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

  def main(args: Array[String]): Unit = {
    val usage = "Usage: KaeShuffleDoctor <event log file or directory> [--png <file.png>] " +
      "[--no-rates]"
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
          println(usage)
          return
        case a if a.startsWith("--") =>
          System.err.println(s"Unknown option $a. $usage")
          sys.exit(2)
        case a => logs += a
      }
      i += 1
    }
    if (logs.size != 1) {
      System.err.println(usage)
      sys.exit(2)
    }
    val report = try analyze(logs.head, rates) catch {
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
    png.foreach { p =>
      DoctorChart.write(report, new File(p))
      println(s"Chart: $p")
    }
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
    def rates(): Option[CodecRates.Rates] = if (!measureRates) None else Try {
      val conf = new SparkConf(false).setAll(props.filter(_._1.startsWith(KaeShuffleConf.PREFIX)))
      CodecRates.of(KaeShuffleSettings.codecOptions(conf))
    }.toOption
    bus.addListener(new KaeStageSummaryListener(summaries = false, doctor = true,
      rates = () => rates(), out = line => lines += line, onDiagnosis = d => diagnoses += d))
    val files = reader.listEventLogFiles
    files.zipWithIndex.foreach { case (f, n) =>
      Utils.tryWithResource(EventLogFileReader.openEventLog(f.getPath, fs)) { in =>
        bus.replay(in, f.getPath.toString,
          maybeTruncated = n == files.size - 1 && !reader.completed)
      }
    }
    Report(app, lines.toSeq, diagnoses.toSeq)
  }
}

/** Stacked horizontal bars of each stage's link times, drawn with Java2D (headless). */
private[spark] object DoctorChart {
  private val colors = Map(
    ShuffleDoctor.Fetch -> new Color(0x8c564b),
    ShuffleDoctor.Decompress -> new Color(0xe377c2),
    ShuffleDoctor.Deserialization -> new Color(0xbcbd22),
    ShuffleDoctor.Serialization -> new Color(0x1f77b4),
    ShuffleDoctor.Compress -> new Color(0xd62728),
    ShuffleDoctor.DiskWrite -> new Color(0x2ca02c),
    ShuffleDoctor.Other -> new Color(0xc7c7c7))

  def write(report: KaeShuffleDoctor.Report, file: File): Unit = {
    System.setProperty("java.awt.headless", "true")
    val rows = report.diagnoses
    val labelWidth = 260
    val barWidth = 760
    val rowHeight = 30
    val top = 90
    val width = labelWidth + barWidth + 40
    val height = top + math.max(1, rows.size) * rowHeight + 60
    val img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB)
    val g = img.createGraphics()
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
      g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
      g.setColor(Color.WHITE)
      g.fillRect(0, 0, width, height)
      g.setColor(Color.BLACK)
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15))
      g.drawString(s"KAE Shuffle doctor: ${report.app}", 12, 24)
      // Legend.
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12))
      var x = 12
      for (name <- ShuffleDoctor.Links) {
        g.setColor(colors(name))
        g.fillRect(x, 40, 14, 14)
        g.setColor(Color.BLACK)
        g.drawString(name, x + 18, 52)
        x += 22 + g.getFontMetrics.stringWidth(name) + 12
      }
      val longest = math.max(1L, rows.map(_.total).foldLeft(0L)(math.max))
      val scale = barWidth.toDouble / longest
      rows.zipWithIndex.foreach { case (d, i) =>
        val y = top + i * rowHeight
        g.setColor(Color.BLACK)
        g.drawString(s"stage ${d.totals.stageId}.${d.totals.attempt} ${d.kind} " +
          s"(${d.totals.tasks} tasks)", 12, y + 18)
        var left = labelWidth.toDouble
        for (name <- ShuffleDoctor.Links; l <- d.all.find(_.name == name) if l.nanos > 0) {
          val w = l.nanos * scale
          g.setColor(colors(name))
          g.fillRect(left.round.toInt, y + 4, math.max(1, w.round.toInt), rowHeight - 8)
          left += w
        }
      }
      // Axis: seconds of task time.
      val axisY = top + math.max(1, rows.size) * rowHeight + 6
      g.setColor(Color.DARK_GRAY)
      g.setStroke(new BasicStroke(1f))
      g.drawLine(labelWidth, axisY, labelWidth + barWidth, axisY)
      for (t <- 0 to 4) {
        val px = labelWidth + barWidth * t / 4
        g.drawLine(px, axisY, px, axisY + 5)
        g.drawString(String.format(Locale.ROOT, "%.1f", longest / 1e9 * t / 4), px - 8,
          axisY + 20)
      }
      g.drawString("task time, s (summed over the stage's tasks)", labelWidth, axisY + 40)
      if (rows.isEmpty) g.drawString("no stage with KAE Shuffle link times", labelWidth, top + 18)
    } finally g.dispose()
    Option(file.getAbsoluteFile.getParentFile).foreach(_.mkdirs())
    if (!ImageIO.write(img, "png", file)) {
      throw new IllegalStateException(s"No PNG writer in this JVM: cannot write $file")
    }
  }
}
