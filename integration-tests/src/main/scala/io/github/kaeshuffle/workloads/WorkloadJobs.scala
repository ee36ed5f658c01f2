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

import java.nio.charset.StandardCharsets
import java.util.Random

import scala.jdk.CollectionConverters._
import scala.util.hashing.MurmurHash3

import org.apache.spark.HashPartitioner
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.{DataFrame, SparkSession}

/**
 * The workloads of docs/workloads.md as Spark jobs. Each returns a [[Digest]] of its result that
 * is equal for equal results: order-sensitive where the job defines an order (sort), otherwise a
 * commutative sum of record hashes, so nothing large is collected to the driver.
 */
object WorkloadJobs {

  /** Record count and a 64-bit digest; `sample` shows a few records when two digests differ. */
  case class Digest(records: Long, hash: Long, sample: Seq[String]) {
    def sameAs(o: Digest): Boolean = records == o.records && hash == o.hash
    override def toString: String = f"$records records, digest $hash%016x, e.g. ${sample.take(3)}"
  }

  val Names: Seq[String] = Seq(
    "sort",
    "wordcount",
    "kmeans",
    "lda-edges",
    "sql-join",
    "groupby-skew",
    "groupby-skew-sql",
    "incompressible")

  def run(
      name: String,
      spark: SparkSession,
      size: Workloads.Size,
      slices: Int,
      seed: Long = 42L): Digest = name match {
    case "sort" => sort(spark, size.linesPerSlice, slices, seed)
    case "wordcount" => wordcount(spark, size.linesPerSlice, slices, seed)
    case "kmeans" => kmeans(spark, size, slices, seed)
    case "lda-edges" => ldaEdges(spark, size, slices, seed)
    case "sql-join" => sqlJoin(spark, size.linesPerSlice.toLong * slices, slices, seed)
    case "groupby-skew" => groupBySkew(spark, size, slices, seed)
    case "groupby-skew-sql" => groupBySkewSql(spark, size, slices, seed)
    case "incompressible" => incompressible(spark, size, slices, seed)
    case other => throw new IllegalArgumentException(
        s"Unknown workload '$other': use one of ${Names.mkString(", ")}.")
  }

  private def h(s: String): Long = {
    val b = s.getBytes(StandardCharsets.UTF_8)
    (MurmurHash3.bytesHash(b, 0x3c074a61).toLong << 32) ^
      (MurmurHash3.bytesHash(b, 0x5bd1e995).toLong & 0xffffffffL)
  }

  /** Order-independent digest of any records, by their string form. */
  def unordered[T](rdd: RDD[T]): Digest = {
    val (n, sum) = rdd.map(r => (1L, h(String.valueOf(r))))
      .fold((0L, 0L))((a, b) => (a._1 + b._1, a._2 + b._2))
    Digest(n, sum, rdd.take(3).map(String.valueOf).toSeq)
  }

  /** Order-sensitive digest: partitions in order, records in order within each. */
  def ordered[T](rdd: RDD[T]): Digest = {
    val parts = rdd.mapPartitionsWithIndex { (i, it) =>
      var n = 0L
      var acc = 17L
      it.foreach { r =>
        acc = acc * 1000003L + h(String.valueOf(r))
        n += 1
      }
      Iterator((i, n, acc))
    }.collect().sortBy(_._1)
    val hash = parts.foldLeft(0L)((acc, p) => acc * 31L + p._3 * (p._2 + 1))
    Digest(parts.map(_._2).sum, hash, rdd.take(3).map(String.valueOf).toSeq)
  }

  private[workloads] def slicesRdd(spark: SparkSession, slices: Int): RDD[Int] =
    spark.sparkContext.parallelize(0 until slices, slices)

  private def sortRecords(
      spark: SparkSession,
      linesPerSlice: Int,
      slices: Int,
      seed: Long): RDD[(String, String)] =
    slicesRdd(spark, slices).flatMap(i => Workloads.sort(seed, i, linesPerSlice).asScala)
      .map(t => (t._1, t._2))

  /** `sort`: the text's lines by key, into as many partitions as input slices. */
  def sort(spark: SparkSession, linesPerSlice: Int, slices: Int, seed: Long): Digest =
    ordered(sortRecords(spark, linesPerSlice, slices, seed).sortByKey(numPartitions = slices))

  /** `wordcount`: each word's count in the text. */
  def wordcount(spark: SparkSession, linesPerSlice: Int, slices: Int, seed: Long): Digest =
    unordered(slicesRdd(spark, slices)
      .flatMap(i => Workloads.lines(seed, i, linesPerSlice).asScala)
      .flatMap(_.split(' ')).map(w => (w, 1L)).reduceByKey(_ + _))

  /** Lloyd's k-means (k = 5, 3 iterations) on 20-dimensional points from a Gaussian mixture. */
  def kmeans(spark: SparkSession, size: Workloads.Size, slices: Int, seed: Long): Digest = {
    val k = 5
    val dim = 20
    val points = slicesRdd(spark, slices).flatMap { i =>
      val r = new Random(seed * 7919 + i)
      Iterator.fill(size.documentsPerSlice * 5) {
        val c = r.nextInt(k)
        Array.tabulate(dim)(d => c * 10.0 + d + r.nextGaussian())
      }
    }.cache()
    var centers = points.takeSample(withReplacement = false, k, seed)
    for (_ <- 1 to 3) {
      val current = centers
      centers = points.map { p =>
        val best = current.indices.minBy(c => dist(p, current(c)))
        (best, (p, 1L))
      }.reduceByKey((x: (Array[Double], Long), y: (Array[Double], Long)) =>
        (x._1.zip(y._1).map(t => t._1 + t._2), x._2 + y._2))
        .collect().sortBy(_._1).map { case (_, (sum, n)) => sum.map(_ / n) }
    }
    points.unpersist()
    // Floating-point sums depend on merge order: compare centers at 1e-6.
    val rounded = centers.map(_.map(v => math.round(v * 1e6) / 1e6).mkString(",")).sorted
    unordered(spark.sparkContext.parallelize(rounded.toSeq, 1))
  }

  private def dist(a: Array[Double], b: Array[Double]): Double = {
    var s = 0.0
    var i = 0
    while (i < a.length) { val d = a(i) - b(i); s += d * d; i += 1 }
    s
  }

  def ldaEdgeRecords(
      spark: SparkSession,
      size: Workloads.Size,
      slices: Int,
      seed: Long): RDD[(Int, (Long, Int, Double))] =
    slicesRdd(spark, slices)
      .flatMap(i => Workloads.ldaEdges(seed, i, size.documentsPerSlice).asScala)
      .map { t =>
        val v = t._2
        (
          t._1.asInstanceOf[Int],
          (v._1.asInstanceOf[Long], v._2.asInstanceOf[Int], v._3.asInstanceOf[Double]))
      }

  /** Edges partitioned by word, then per partition: per word, documents and total weight. */
  def ldaEdges(spark: SparkSession, size: Workloads.Size, slices: Int, seed: Long): Digest =
    unordered(ldaEdgeRecords(spark, size, slices, seed)
      .partitionBy(new HashPartitioner(slices))
      .mapPartitions { it =>
        val perWord = scala.collection.mutable.HashMap[Int, (Long, Double)]()
        it.foreach { case (w, (_, _, weight)) =>
          val (n, s) = perWord.getOrElse(w, (0L, 0.0))
          perWord(w) = (n + 1, s + weight)
        }
        perWord.iterator
      })

  /** A fact table joined with a dimension table 1/30 its size, no broadcast, then grouped. */
  def sqlJoin(spark: SparkSession, facts: Long, slices: Int, seed: Long): Digest = {
    val dims = math.max(1L, facts / 30)
    val df = spark.range(0, facts, 1, slices)
      .selectExpr("id", s"pmod(hash(id, $seed), $dims) AS dim", "pmod(hash(id, 7), 1000) AS amount")
    val dim = spark.range(0, dims, 1, slices)
      .selectExpr("id AS dim", "concat('category-', pmod(id, 97)) AS category")
    withBroadcastOff(spark) {
      val out = df.join(dim, "dim").groupBy("category")
        .agg(
          org.apache.spark.sql.functions.sum("amount").as("total"),
          org.apache.spark.sql.functions.count("*").as("n"))
      unordered(out.rdd.map(_.mkString("|")))
    }
  }

  private def skewedKey(r: Random, keys: Int): Int =
    if (r.nextDouble() < 0.2) 0 else 1 + TextCorpus.get().sampleRank(r) % keys

  /** groupByKey over Zipf keys where one key carries ~20% of the records. */
  def groupBySkew(spark: SparkSession, size: Workloads.Size, slices: Int, seed: Long): Digest =
    unordered(slicesRdd(spark, slices).flatMap { i =>
      val r = new Random(seed * 31 + i)
      Iterator.fill(size.linesPerSlice)((skewedKey(r, 5000), r.nextInt(1000).toLong))
    }.groupByKey(slices).mapValues(v => (v.size, v.sum)))

  /** The SQL variant: a skewed join that AQE splits into map ranges. */
  def groupBySkewSql(spark: SparkSession, size: Workloads.Size, slices: Int, seed: Long): Digest =
    withBroadcastOff(spark)(unordered(skewJoinFrame(spark, size, slices, seed).rdd
      .map(_.mkString("|"))))

  /** The skewed join and aggregate; run it with broadcast joins off (see [[withBroadcastOff]]). */
  def skewJoinFrame(
      spark: SparkSession,
      size: Workloads.Size,
      slices: Int,
      seed: Long): DataFrame = {
    val n = size.linesPerSlice.toLong * slices
    val left = spark.range(0, n, 1, slices).selectExpr(
      s"CASE WHEN pmod(hash(id, $seed), 5) = 0 THEN 0 ELSE pmod(hash(id, 3), 5000) END AS k",
      // Random values keep the skewed partition large after compression: AQE judges skew by
      // the bytes on disk, and whole-block compression shrinks repetitive rows a lot.
      "pmod(xxhash64(id, 11), 1000000007) AS v"
    )
    val right = spark.range(0, 5000, 1, slices).selectExpr("id AS k", "id * 2 AS w")
    // Grouped by something other than the join key: an aggregate on the join key would need the
    // join's partitioning, and AQE does not split a skewed join it would have to re-shuffle.
    left.join(right, "k").groupBy(org.apache.spark.sql.functions.expr("pmod(k, 97)").as("g"))
      .agg(
        org.apache.spark.sql.functions.sum("v").as("sv"),
        org.apache.spark.sql.functions.sum("w").as("sw"))
  }

  /** Records of random bytes: the stored-raw path. */
  def incompressible(spark: SparkSession, size: Workloads.Size, slices: Int, seed: Long): Digest =
    unordered(slicesRdd(spark, slices).flatMap { i =>
      val r = new Random(seed * 13 + i)
      Iterator.fill(size.documentsPerSlice * 2) {
        val b = new Array[Byte](1000)
        r.nextBytes(b)
        (r.nextInt(), b)
      }
    }.partitionBy(new HashPartitioner(slices))
      .map { case (k, b) => s"$k:${java.util.Arrays.hashCode(b)}" })

  def withBroadcastOff[T](spark: SparkSession)(f: => T): T = {
    val key = "spark.sql.autoBroadcastJoinThreshold"
    val old = spark.conf.getOption(key)
    spark.conf.set(key, "-1")
    try f
    finally old match {
        case Some(v) => spark.conf.set(key, v)
        case None => spark.conf.unset(key)
      }
  }
}
