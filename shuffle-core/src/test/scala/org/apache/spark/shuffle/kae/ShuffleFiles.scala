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

import java.io.{DataInputStream, File}
import java.nio.ByteBuffer
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.format.SegmentIndex

import org.apache.spark.SparkContext

/** Reads committed shuffle files back, to check what the writer put on disk. */
object ShuffleFiles {
  case class MapOutput(data: Path, offsets: Array[Long]) {
    def partitionLength(p: Int): Long = offsets(p + 1) - offsets(p)
    def bytes: Array[Byte] = Files.readAllBytes(data)
    def segment(p: Int): ByteBuffer =
      ByteBuffer.wrap(bytes, offsets(p).toInt, partitionLength(p).toInt).slice()

    /** The parsed index of every non-empty partition. */
    def segments: Map[Int, SegmentIndex] =
      (0 until offsets.length - 1).filter(partitionLength(_) > 0)
        .map(p => p -> SegmentIndex.parse(segment(p))).toMap
  }

  /** Every committed map output of `shuffleId` under the context's local dirs. */
  def mapOutputs(sc: SparkContext, shuffleId: Int): Seq[MapOutput] = {
    val root = new File(sc.getConf.get("spark.local.dir")).toPath
    // DiskBlockManager hashes each file name into its own subdirectory: look files up by name.
    val byName = Files.walk(root).iterator().asScala.toSeq.map(p => p.getFileName.toString -> p)
      .toMap
    byName.keys.toSeq.sorted
      .filter(_.matches(s"shuffle_${shuffleId}_\\d+_0\\.index"))
      .map(byName)
      .map { index =>
        val in = new DataInputStream(Files.newInputStream(index))
        val offsets =
          try {
            Iterator.continually(in.readLong()).take((Files.size(index) / 8).toInt).toArray
          } finally in.close()
        val data = byName(index.getFileName.toString.replace(".index", ".data"))
        MapOutput(data, offsets)
      }
  }
}
