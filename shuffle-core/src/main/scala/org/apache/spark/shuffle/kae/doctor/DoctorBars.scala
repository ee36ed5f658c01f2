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

/**
 * The shuffle doctor's picture of one stage, shared by the event-log command's PNG (DoctorChart)
 * and the UI tab's SVG: one bar per stage, a segment per link in [[ShuffleDoctor.Links]] order,
 * each as long as the link's share of the stage's task time.
 */
private[spark] object DoctorBars {

  /** Each link's colour, as 0xRRGGBB. */
  val Colors: Map[String, Int] = Map(
    ShuffleDoctor.Fetch -> 0x8c564b,
    ShuffleDoctor.Decompress -> 0xe377c2,
    ShuffleDoctor.Deserialization -> 0xbcbd22,
    ShuffleDoctor.Serialization -> 0x1f77b4,
    ShuffleDoctor.Compress -> 0xd62728,
    ShuffleDoctor.DiskWrite -> 0x2ca02c,
    ShuffleDoctor.Other -> 0xc7c7c7
  )

  /** The colour as CSS wants it. */
  def css(link: String): String = "#%06x".format(Colors(link))

  /** One segment: a link, its time and its share of the stage's task time. */
  case class Segment(link: String, nanos: Long, share: Double)

  /** The segments of a stage's bar, in the legend's order; links without time are left out. */
  def segments(d: Diagnosis): Seq[Segment] = for {
    name <- ShuffleDoctor.Links
    l <- d.all.find(_.name == name) if l.nanos > 0
  } yield Segment(name, l.nanos, l.nanos.toDouble / d.total)
}
