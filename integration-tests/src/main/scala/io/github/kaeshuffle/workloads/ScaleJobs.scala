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
package io.github.kaeshuffle.workloads

import java.util.Random

import org.apache.spark.sql.SparkSession
import org.apache.spark.storage.StorageLevel

/**
 * The study's workloads at its sizes (docs/workloads.md): the size is the input's bytes as the
 * study counts them, its text (sort, wordcount, LDA's documents) or its values (KMeans' doubles,
 * the SQL join's three longs per fact row); the data is generated in the tasks, as everywhere
 * here. One input slice and one shuffle partition per 64 MiB of input, at least 4.
 */
object ScaleJobs {
  val Names: Seq[String] =
    Seq(
      "sort",
      "wordcount",
      "kmeans",
      "lda",
      "sql-join",
      "kmeans-ser",
      "kmeans-docs",
      "broadcast-join")

  /** A run's result: a digest to be equal, or floating values to agree within a tolerance. */
  case class Outcome(digest: Option[WorkloadJobs.Digest], values: Seq[Double])

  private val SliceBytes = 64L << 20

  def slices(bytes: Long): Int = math.max(4L, (bytes + SliceBytes - 1) / SliceBytes).toInt

  /** The text's bytes per line of 10 words, newline included, from a sample of its lines. */
  lazy val bytesPerLine: Double = {
    val r = new Random(1)
    val text = TextCorpus.get()
    (1 to 20000).map(_ => text.line(r, 10).length + 1).sum / 20000.0
  }

  /** A document's bytes as text: 124.5 words on average (50 to 199), each with its space. */
  def bytesPerDocument: Double = 124.5 * bytesPerLine / 10

  /**
   * What a workload needs of its executors, set at submission. `kmeans-ser` and `kmeans-docs`
   * fill the storage memory with Spark's 1 MiB unroll chunks, each a humongous object in G1's 1
   * MiB regions of a 2 GB heap (two regions each): the executors ran out of heap under Spark's
   * own codecs. Regions of 4 MiB hold them as ordinary objects. Their unified memory is cut to 0.3
   * of the heap (about 520 MiB), so that a cache of a few GB is well beyond it.
   */
  def executorSettings(name: String): Map[String, String] = name match {
    case "kmeans-ser" | "kmeans-docs" =>
      Map(
        "spark.executor.extraJavaOptions" -> "-XX:G1HeapRegionSize=4m",
        "spark.memory.fraction" -> "0.3")
    case _ => Map.empty
  }

  def run(name: String, spark: SparkSession, bytes: Long, seed: Long): Outcome = {
    val n = slices(bytes)
    def lines = math.max(1L, (bytes / bytesPerLine).toLong / n).toInt
    def points = bytes / (8 * MllibJobs.Dimensions)
    def documents = (bytes / bytesPerDocument).toLong
    name match {
      case "sort" => exact(WorkloadJobs.sort(spark, lines, n, seed))
      case "wordcount" => exact(WorkloadJobs.wordcount(spark, lines, n, seed))
      case "sql-join" => exact(WorkloadJobs.sqlJoin(spark, bytes / 24, n, seed))
      case "kmeans" => Outcome(None, MllibJobs.kmeans(spark, points, n, seed))
      case "kmeans-ser" =>
        // Slices of 16 MiB, smaller cached blocks; tried first against running out of heap, which
        // the G1 regions of executorSettings fixed.
        val level = StorageLevel.MEMORY_AND_DISK_SER
        Outcome(None, MllibJobs.kmeans(spark, points, 4 * n, seed, level))
      case "kmeans-docs" =>
        Outcome(None, MllibJobs.kmeansDocuments(spark, documents, 4 * n, seed))
      case "broadcast-join" => exact(IoJobs.broadcastJoin(spark, bytes / 24, n, seed))
      case "lda" => Outcome(None, MllibJobs.lda(spark, documents, n, seed))
      case other => throw new IllegalArgumentException(
          s"Unknown workload '$other': use one of ${Names.mkString(", ")}.")
    }
  }

  private def exact(d: WorkloadJobs.Digest) = Outcome(Some(d), Nil)
}
