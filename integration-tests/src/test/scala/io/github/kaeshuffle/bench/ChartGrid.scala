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

import java.awt.Color
import java.awt.image.BufferedImage
import java.nio.file.{Files, Path, Paths}
import javax.imageio.ImageIO

import org.knowm.xchart.BitmapEncoder
import org.knowm.xchart.internal.chartpart.Chart

/**
 * A page's charts as one picture, in rows of `columns`: a benchmark page is then one Markdown
 * file, its CSV and one image, however many charts it draws.
 */
object ChartGrid {

  /** Draws the charts that have series into `out/name`; None where none has any. */
  def save(out: Path, name: String, columns: Int, charts: Seq[Chart[_, _]]): Option[String] = {
    val drawn = charts.filter(!_.getSeriesMap.isEmpty).map(c => BitmapEncoder.getBufferedImage(c))
    if (drawn.isEmpty) None
    else {
      ImageIO.write(tile(drawn, columns), "png", out.resolve(name).toFile)
      Some(name)
    }
  }

  /** The images in rows of `columns`, each cell as large as the largest, on white. */
  def tile(images: Seq[BufferedImage], columns: Int): BufferedImage = {
    val cols = math.min(columns, images.size)
    val (w, h) = (images.map(_.getWidth).max, images.map(_.getHeight).max)
    val rows = (images.size + cols - 1) / cols
    val all = new BufferedImage(cols * w, rows * h, BufferedImage.TYPE_INT_RGB)
    val g = all.createGraphics()
    g.setColor(Color.WHITE)
    g.fillRect(0, 0, all.getWidth, all.getHeight)
    for ((p, i) <- images.zipWithIndex) g.drawImage(p, i % cols * w, i / cols * h, null)
    g.dispose()
    all
  }

  /**
   * Tiles pictures drawn before into one, as [[save]] would have drawn them:
   * `<out.png> <columns> <in.png>...`.
   */
  def main(args: Array[String]): Unit = {
    val images = args.drop(2).map(p => ImageIO.read(Paths.get(p).toFile)).toSeq
    require(images.nonEmpty && images.forall(_ != null), s"no pictures in ${args.drop(2).toList}")
    val out = Paths.get(args(0))
    Files.createDirectories(out.toAbsolutePath.getParent)
    ImageIO.write(tile(images, args(1).toInt), "png", out.toFile)
  }
}
