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

import java.io.{DataInputStream, File, RandomAccessFile}
import java.nio.ByteBuffer
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.format.SegmentIndex

import org.apache.spark.SparkContext

/**
 * Reads committed shuffle files back, to check what the writer put on disk, and damages them, to
 * check what a reader makes of a bad byte. Shared by the unit suites, the integration tests and
 * Spark's suites (this module's test jar).
 */
object ShuffleFiles {
  case class MapOutput(data: Path, offsets: Array[Long]) {

    /** The map task's id in the file's name (`shuffle_<shuffle>_<mapId>_0.data`). */
    def mapId: Long = data.getFileName.toString.split('_')(2).toLong
    def partitionLength(p: Int): Long = offsets(p + 1) - offsets(p)
    def bytes: Array[Byte] = Files.readAllBytes(data)
    def segment(p: Int): ByteBuffer =
      ByteBuffer.wrap(bytes, offsets(p).toInt, partitionLength(p).toInt).slice()

    /** The parsed index of every non-empty partition. */
    def segments: Map[Int, SegmentIndex] =
      nonEmptyPartitions.map(p => p -> SegmentIndex.parse(segment(p))).toMap

    def nonEmptyPartitions: Seq[Int] = (0 until offsets.length - 1).filter(partitionLength(_) > 0)

    /** Inverts `length` bytes in the middle of partition `p`'s segment. */
    def damageSegment(p: Int, length: Int): Unit = {
      require(partitionLength(p) >= length, s"segment $p of $data is ${partitionLength(p)} bytes")
      invert(data, offsets(p) + (partitionLength(p) - length) / 2, length)
    }
  }

  /** The shuffle files of the context's local dirs (the root of every executor's block dirs). */
  def localRoot(sc: SparkContext): Path = new File(sc.getConf.get("spark.local.dir")).toPath

  /**
   * The files under `root` whose names match `pattern`, sorted by name. DiskBlockManager hashes
   * each file name into its own subdirectory: files are looked up by name, never by path.
   */
  def files(root: Path, pattern: String): Seq[Path] = {
    val walk = Files.walk(root)
    try walk.iterator().asScala.filter(_.getFileName.toString.matches(pattern)).toList
        .sortBy(_.getFileName.toString)
    finally walk.close()
  }

  /** Every committed map output of `shuffleId` under the context's local dirs. */
  def mapOutputs(sc: SparkContext, shuffleId: Int): Seq[MapOutput] =
    mapOutputs(localRoot(sc), shuffleId)

  /** Every committed map output of `shuffleId` under `root`. */
  def mapOutputs(root: Path, shuffleId: Int): Seq[MapOutput] = {
    val named = files(root, s"shuffle_${shuffleId}_\\d+_0\\.(index|data)")
      .map(p => p.getFileName.toString -> p).toMap
    named.keys.toSeq.sorted.filter(_.endsWith(".index")).map { name =>
      val index = named(name)
      val in = new DataInputStream(Files.newInputStream(index))
      val offsets =
        try Iterator.continually(in.readLong()).take((Files.size(index) / 8).toInt).toArray
        finally in.close()
      MapOutput(named(name.replace(".index", ".data")), offsets)
    }
  }

  /** Inverts `length` bytes of `file` from `at`. */
  def invert(file: Path, at: Long, length: Int): Unit = {
    val raf = new RandomAccessFile(file.toFile, "rw")
    try invert(raf, at, length)
    finally raf.close()
  }

  /** Inverts `length` bytes of an open file from `at`. */
  def invert(raf: RandomAccessFile, at: Long, length: Int): Unit = {
    val bytes = new Array[Byte](length)
    raf.seek(at)
    raf.readFully(bytes)
    raf.seek(at)
    raf.write(bytes.map(b => (~b).toByte))
  }
}
