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

import org.apache.spark.graphx.{Graph, VertexId}
import org.apache.spark.graphx.lib.PageRank
import org.apache.spark.ml.clustering.{KMeans => MlKMeans, LDA => MlLDA}
import org.apache.spark.ml.recommendation.ALS
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.functions.{col, pow, sum}

/**
 * Spark's own libraries, whose shuffles we did not design, as users call them: MLlib's LDA with
 * the EM optimizer (GraphX underneath) and `ml`'s online LDA, `ml`'s KMeans and ALS, GraphX's
 * PageRank and connected components. Each job's data comes from a seed; `scale` multiplies the
 * tiny size (1). Floating results follow the order the shuffle merges in, so they are compared
 * within a tolerance; counts and component ids exactly.
 */
object LibraryJobs {
  val Names: Seq[String] =
    Seq("mllib-lda-em", "ml-lda-online", "ml-kmeans", "ml-als", "graphx-pagerank", "graphx-cc")

  /** What a job computed: exact figures, and floating ones to compare within a tolerance. */
  case class Result(exact: Seq[Long], floating: Seq[Double]) {
    def matches(o: Result, tolerance: Double): Boolean =
      exact == o.exact && MllibJobs.close(floating, o.floating, tolerance)

    /** The largest relative difference of the floating figures (0 where they are equal). */
    def distance(o: Result): Double =
      floating.zip(o.floating).map { case (x, y) =>
        math.abs(x - y) / math.max(1.0, math.max(math.abs(x), math.abs(y)))
      }.foldLeft(0.0)(math.max)

    override def toString: String =
      s"exact ${exact.take(4).mkString(",")}; floating ${floating.take(4).mkString(",")}"
  }

  def run(name: String, spark: SparkSession, scale: Int, slices: Int, seed: Long): Result =
    name match {
      case "mllib-lda-em" => Result(Nil, MllibJobs.lda(spark, 100L * scale, slices, seed))
      case "ml-lda-online" => ldaOnline(spark, 100L * scale, slices, seed)
      case "ml-kmeans" => kmeans(spark, 2000L * scale, slices, seed)
      case "ml-als" => als(spark, 200 * scale, slices, seed)
      case "graphx-pagerank" => pageRank(spark, 2000 * scale, slices, seed)
      case "graphx-cc" => components(spark, 2000 * scale, slices, seed)
      case other => throw new IllegalArgumentException(
          s"Unknown library job '$other': use one of ${Names.mkString(", ")}.")
    }

  private def ldaOnline(spark: SparkSession, documents: Long, slices: Int, seed: Long): Result = {
    import spark.implicits._
    val docs = MllibJobs.corpus(spark, documents, slices, seed)
      .map { case (id, v) => (id, v.asML) }.toDF("id", "features").cache()
    try {
      val model = new MlLDA().setK(MllibJobs.Topics).setMaxIter(5).setOptimizer("online")
        .setSubsamplingRate(0.5).setSeed(seed).fit(docs)
      val topics = model.topicsMatrix
      val weights = for (r <- 0 until topics.numRows; c <- 0 until topics.numCols)
        yield topics(r, c)
      Result(
        Seq(docs.count()),
        Seq(
          model.logLikelihood(docs),
          model.logPerplexity(docs),
          weights.sum,
          weights.map(w => w * w).sum))
    } finally docs.unpersist()
  }

  private def kmeans(spark: SparkSession, n: Long, slices: Int, seed: Long): Result = {
    import spark.implicits._
    val points = MllibJobs.points(spark, n, slices, seed)
    try {
      val df = points.map(p => Tuple1(p.asML)).toDF("features")
      val model = new MlKMeans().setK(MllibJobs.Topics).setMaxIter(5).setSeed(seed).fit(df)
      val centers = model.clusterCenters.map(_.toArray.toSeq).sortBy(_.mkString(","))
      Result(
        model.summary.clusterSizes.sorted.toSeq,
        (model.summary.trainingCost +: centers.flatten).toSeq)
    } finally points.unpersist()
  }

  /** Ratings of `users` users for a tenth as many items: a rank-3 taste plus noise. */
  private def als(spark: SparkSession, users: Int, slices: Int, seed: Long): Result = {
    import spark.implicits._
    val items = math.max(users / 10, 10)
    val ratings = WorkloadJobs.slicesRdd(spark, slices).flatMap { s =>
      val r = new Random(seed * 31 + s)
      (s until users by slices).iterator.flatMap { u =>
        Iterator.fill(8) {
          val i = r.nextInt(items)
          val taste = (0 until 3).map(k => math.sin(u * (k + 1.0)) * math.cos(i * (k + 2.0))).sum
          (u, i, (3 + taste + r.nextGaussian() * 0.1).toFloat)
        }
      }
    }.toDF("user", "item", "rating").dropDuplicates("user", "item").cache()
    try {
      val model = new ALS().setRank(4).setMaxIter(5).setRegParam(0.05).setSeed(seed)
        .setNumUserBlocks(slices).setNumItemBlocks(slices)
        .setUserCol("user").setItemCol("item").setRatingCol("rating").fit(ratings)
      val errors = model.transform(ratings)
        .select(sum(pow(col("rating") - col("prediction"), 2)).as("sse")).head().getDouble(0)
      Result(
        Seq(ratings.count(), model.userFactors.count(), model.itemFactors.count()),
        Seq(errors, squares(model.userFactors), squares(model.itemFactors)))
    } finally ratings.unpersist()
  }

  private def squares(factors: DataFrame): Double =
    factors.rdd.map(_.getSeq[Float](1).map(f => f.toDouble * f).sum).sum()

  /** `vertices` vertices with 4 out-edges each: targets drawn from a Zipf over their group. */
  private def graph(spark: SparkSession, vertices: Int, slices: Int, seed: Long, groups: Int) = {
    val edges: RDD[(VertexId, VertexId)] = WorkloadJobs.slicesRdd(spark, slices).flatMap { s =>
      val r = new Random(seed * 131 + s)
      val zipf = new Zipf(vertices / groups, 1.1)
      (s until vertices by slices).iterator.flatMap { v =>
        Iterator.fill(4) {
          val target = zipf.sample(r) * groups + v % groups
          (v.toLong, target.toLong)
        }
      }
    }
    Graph.fromEdgeTuples(edges, 1)
  }

  private def pageRank(spark: SparkSession, vertices: Int, slices: Int, seed: Long): Result = {
    val ranks = PageRank.run(graph(spark, vertices, slices, seed, 1), 5).vertices.values.collect()
    java.util.Arrays.sort(ranks)
    Result(
      Seq(ranks.length.toLong),
      Seq(ranks.sum, ranks.map(x => x * x).sum) ++ ranks.reverseIterator.take(10))
  }

  private def components(spark: SparkSession, vertices: Int, slices: Int, seed: Long): Result = {
    val cc = graph(spark, vertices, slices, seed, 7).connectedComponents().vertices
    val digest = WorkloadJobs.unordered(cc)
    Result(Seq(cc.values.distinct().count(), digest.records, digest.hash), Nil)
  }
}
