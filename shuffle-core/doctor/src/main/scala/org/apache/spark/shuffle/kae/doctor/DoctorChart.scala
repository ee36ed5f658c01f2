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

import java.awt.{BasicStroke, Color, Font, RenderingHints}
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
      g.setRenderingHint(
        RenderingHints.KEY_TEXT_ANTIALIASING,
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
        g.setColor(color(name))
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
        g.drawString(
          s"stage ${d.totals.stageId}.${d.totals.attempt} ${d.kind} " +
            s"(${d.totals.tasks} tasks)",
          12,
          y + 18)
        var left = labelWidth.toDouble
        for (s <- DoctorBars.segments(d)) {
          val w = s.nanos * scale
          g.setColor(color(s.link))
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
        g.drawString("%.1f".formatLocal(Locale.ROOT, longest / 1e9 * t / 4), px - 8, axisY + 20)
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
