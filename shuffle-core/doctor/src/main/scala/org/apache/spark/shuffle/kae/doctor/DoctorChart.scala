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
package doctor

import java.awt.{BasicStroke, Color, Font, Graphics2D, RenderingHints}
import java.awt.image.BufferedImage
import java.io.File
import java.util.Locale
import javax.imageio.ImageIO

/**
 * Stacked horizontal bars of each stage's link times ([[DoctorBars]], as the UI tab draws them),
 * drawn with Java2D (headless), on one time axis for all stages.
 */
private[spark] object DoctorChart {
  private def color(link: String): Color = new Color(DoctorBars.Colors(link))

  private val LabelWidth = 260
  private val BarWidth = 760
  private val RowHeight = 30
  private val Top = 90

  def write(report: KaeShuffleDoctor.Report, file: File): Unit = {
    System.setProperty("java.awt.headless", "true")
    val rows = report.diagnoses
    val width = LabelWidth + BarWidth + 40
    val height = Top + math.max(1, rows.size) * RowHeight + 60
    val img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB)
    val g = img.createGraphics()
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON)
      g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING,
        RenderingHints.VALUE_TEXT_ANTIALIAS_ON)
      g.setColor(Color.WHITE)
      g.fillRect(0, 0, width, height)
      drawTitleAndLegend(g, report.app)
      val longest = math.max(1L, rows.map(_.total).foldLeft(0L)(math.max))
      rows.zipWithIndex.foreach { case (d, i) =>
        drawStage(g, d, Top + i * RowHeight, BarWidth.toDouble / longest)
      }
      drawAxis(g, Top + math.max(1, rows.size) * RowHeight + 6, longest)
      if (rows.isEmpty) g.drawString("no stage with KAE Shuffle link times", LabelWidth, Top + 18)
    } finally g.dispose()
    Option(file.getAbsoluteFile.getParentFile).foreach(_.mkdirs())
    if (!ImageIO.write(img, "png", file)) {
      throw new IllegalStateException(s"No PNG writer in this JVM: cannot write $file")
    }
  }

  private def drawTitleAndLegend(g: Graphics2D, app: String): Unit = {
    g.setColor(Color.BLACK)
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15))
    g.drawString(s"KAE Shuffle doctor: $app", 12, 24)
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12))
    var x = 12
    for (name <- ShuffleDoctor.Links) {
      g.setColor(color(name))
      g.fillRect(x, 40, 14, 14)
      g.setColor(Color.BLACK)
      g.drawString(name, x + 18, 52)
      x += 22 + g.getFontMetrics.stringWidth(name) + 12
    }
  }

  /** One stage's label and its links' bar, `scale` pixels per nanosecond. */
  private def drawStage(g: Graphics2D, d: Diagnosis, y: Int, scale: Double): Unit = {
    g.setColor(Color.BLACK)
    g.drawString(
      s"stage ${d.totals.stageId}.${d.totals.attempt} ${d.kind} (${d.totals.tasks} tasks)",
      12,
      y + 18)
    var left = LabelWidth.toDouble
    for (s <- DoctorBars.segments(d)) {
      val w = s.nanos * scale
      g.setColor(color(s.link))
      g.fillRect(left.round.toInt, y + 4, math.max(1, w.round.toInt), RowHeight - 8)
      left += w
    }
  }

  /** The time axis: seconds of task time, summed over each stage's tasks. */
  private def drawAxis(g: Graphics2D, axisY: Int, longest: Long): Unit = {
    g.setColor(Color.DARK_GRAY)
    g.setStroke(new BasicStroke(1f))
    g.drawLine(LabelWidth, axisY, LabelWidth + BarWidth, axisY)
    for (t <- 0 to 4) {
      val px = LabelWidth + BarWidth * t / 4
      g.drawLine(px, axisY, px, axisY + 5)
      g.drawString("%.1f".formatLocal(Locale.ROOT, longest / 1e9 * t / 4), px - 8, axisY + 20)
    }
    g.drawString("task time, s (summed over the stage's tasks)", LabelWidth, axisY + 40)
  }
}
