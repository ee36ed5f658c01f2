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

import scala.jdk.CollectionConverters._

import org.apache.spark.mllib.clustering.{DistributedLDAModel, KMeans, KMeansModel, LDA}
import org.apache.spark.mllib.linalg.{Vector, Vectors}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.storage.StorageLevel

/**
 * Spark's own MLlib as the study ran it (HiBench's KMeans and LDA): `KMeans` (k = 5, 3
 * iterations, k-means|| from a seed) on 20-dimensional points from a Gaussian mixture, and `LDA`
 * with the EM optimizer (k = 5, 2 iterations, GraphX underneath) on documents drawn from the
 * text's vocabulary. Their results are floating sums whose order follows the shuffle's merge
 * order, so they come back as values to compare within a tolerance, not as a digest.
 */
object MllibJobs {
  val Dimensions = 20
  val Topics = 5

  /** `points` points in `slices` slices, kept as `level` says (in memory as the algorithm asks). */
  private[workloads] def points(
      spark: SparkSession,
      points: Long,
      slices: Int,
      seed: Long,
      level: StorageLevel = StorageLevel.MEMORY_ONLY): RDD[Vector] =
    WorkloadJobs.slicesRdd(spark, slices).flatMap { i =>
      val r = new Random(seed * 7919 + i)
      Iterator.fill((points / slices).toInt) {
        val c = r.nextInt(Topics)
        Vectors.dense(Array.tabulate(Dimensions)(d => c * 10.0 + d + r.nextGaussian()))
      }
    }.persist(level)

  /**
   * The cost, then the centers ordered by their coordinates. `level` `MEMORY_AND_DISK_SER` keeps
   * the points serialized, through `spark.io.compression.codec` when `spark.rdd.compress` is on,
   * and on disk past the storage memory: every pass reads them back through the codec.
   */
  def kmeans(
      spark: SparkSession,
      n: Long,
      slices: Int,
      seed: Long,
      level: StorageLevel = StorageLevel.MEMORY_ONLY): Seq[Double] = {
    val data = points(spark, n, slices, seed, level)
    try {
      val model = clusters(data, seed)
      val centers = model.clusterCenters.map(_.toArray.toSeq).sortBy(_.mkString(","))
      model.computeCost(data) +: centers.flatten.toSeq
    } finally data.unpersist()
  }

  /** `documents` documents of 50 to 199 words as word counts over the text's vocabulary. */
  private[workloads] def corpus(
      spark: SparkSession,
      documents: Long,
      slices: Int,
      seed: Long): RDD[(Long, Vector)] =
    WorkloadJobs.slicesRdd(spark, slices).flatMap { i =>
      val r = TextCorpus.random(seed, i)
      val text = TextCorpus.get()
      val perSlice = (documents / slices).toInt
      Iterator.tabulate(perSlice) { d =>
        val bag = Workloads.document(r, text).asScala.toSeq
        val vector = Vectors.sparse(
          TextCorpus.VOCABULARY,
          bag.map(_._1.intValue).toArray,
          bag.map(_._2.doubleValue).toArray)
        (i.toLong * perSlice + d, vector)
      }
    }

  /**
   * The log likelihood and prior, then per topic the sum and the sum of squares of its term
   * weights and its ten largest weights.
   */
  def lda(spark: SparkSession, documents: Long, slices: Int, seed: Long): Seq[Double] = {
    val model = new LDA().setK(Topics).setMaxIterations(2).setOptimizer("em").setSeed(seed)
      .run(corpus(spark, documents, slices, seed)).asInstanceOf[DistributedLDAModel]
    val topics = model.topicsMatrix
    val perTopic =
      (0 until Topics).flatMap(t => summary(Array.tabulate(topics.numRows)(topics(_, t))))
    Seq(model.logLikelihood, model.logPrior) ++ perTopic
  }

  /**
   * `KMeans` as above on the LDA corpus's documents (sparse word counts over the text's
   * vocabulary, which compress as counts do), cached `MEMORY_AND_DISK_SER`: every pass reads the
   * documents back through `spark.io.compression.codec`. The cost, then per center (in the order
   * of their sums) its summary.
   */
  def kmeansDocuments(
      spark: SparkSession,
      documents: Long,
      slices: Int,
      seed: Long): Seq[Double] = {
    val data = corpus(spark, documents, slices, seed).values
      .persist(StorageLevel.MEMORY_AND_DISK_SER)
    try {
      val model = clusters(data, seed)
      val centers = model.clusterCenters.map(c => summary(c.toArray)).sortBy(_.head)
      model.computeCost(data) +: centers.flatten.toSeq
    } finally data.unpersist()
  }

  /** The study's KMeans: k = 5, 3 iterations, k-means|| from the seed. */
  private def clusters(data: RDD[Vector], seed: Long): KMeansModel =
    new KMeans().setK(Topics).setMaxIterations(3).setSeed(seed).run(data)

  /** A weight vector's sum, sum of squares and ten largest weights. */
  private def summary(weights: Array[Double]): Seq[Double] = {
    // Sorts a copy: a dense center's toArray is the model's own array.
    val w = weights.clone()
    java.util.Arrays.sort(w)
    Seq(w.sum, w.map(x => x * x).sum) ++ w.reverseIterator.take(10)
  }

  /** Whether two runs' values agree to a relative `tolerance` (an absolute one near zero). */
  def close(a: Seq[Double], b: Seq[Double], tolerance: Double): Boolean =
    a.size == b.size && a.zip(b).forall { case (x, y) =>
      math.abs(x - y) <= tolerance * math.max(1.0, math.max(math.abs(x), math.abs(y)))
    }
}
