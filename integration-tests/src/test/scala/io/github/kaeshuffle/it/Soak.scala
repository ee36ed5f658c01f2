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
package io.github.kaeshuffle.it

import java.io.File
import java.nio.file.Files

import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

import org.apache.spark.SparkConf
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.col
import org.apache.spark.sql.streaming.{StreamingQuery, Trigger}

/**
 * One application that runs for long: an iterative job making a new shuffle per iteration while a
 * Structured Streaming aggregation shuffles in every micro-batch, sampled as it goes: the
 * driver's and executors' memory, files and threads ([[JvmSample]]), the accumulators and
 * shuffles the driver still holds, the UI's stage rows, and the files in the local dirs. Spark's
 * context cleaner unregisters each shuffle once its dependency is collected on the driver; a
 * sample's full collection lets it.
 */
object Soak {
  private val Log = org.slf4j.LoggerFactory.getLogger(getClass)

  /**
   * @param shuffles iterations of the iterative job, at least
   * @param batches micro-batches of the streaming query, at least
   * @param sampleEvery iterations between samples
   * @param streamPartitions the query's shuffle partitions (its state store's too)
   */
  case class Plan(shuffles: Int, batches: Int, sampleEvery: Int, streamPartitions: Int)

  /** One sample: how far the application got, and each measure by name. */
  case class Sample(shuffles: Int, batches: Long, seconds: Double, values: Map[String, Double])

  /**
   * The samples, and what the driver still held once the streaming query stopped and the context
   * cleaner caught up: shuffles tracked, accumulators registered, files in the local dirs; and the
   * classes whose live bytes in the driver grew most from the end of warm-up to the last sample.
   */
  case class Run(samples: Seq[Sample], released: Map[String, Double], driverGrew: Seq[String])

  /** Spark's own UI retention for the soak, low so that its own store is full early. */
  val RetainedStages = 200

  /**
   * Hadoop's local file system renames through `FileContext` by forking `readlink` for each path
   * (its deprecated link status), and the state store renames a delta file per partition per
   * micro-batch: at 200 partitions those forks, not the shuffles, set the soak's pace. The
   * `FileSystem`-based checkpoint manager renames in the JVM. Its package moved in Spark 4.1.
   */
  private val InProcessRenames = Seq("streaming.checkpointing.", "streaming.")
    .map("org.apache.spark.sql.execution." + _ + "FileSystemBasedCheckpointFileManager")
    .find(name => scala.util.Try(Class.forName(name)).isSuccess)

  def settings(conf: SparkConf): SparkConf = conf
    .set("spark.ui.enabled", "true")
    .set("spark.ui.port", "0")
    .set("spark.ui.retainedJobs", "200")
    .set("spark.ui.retainedStages", RetainedStages.toString)
    .set("spark.sql.ui.retainedExecutions", "100")
    .set("spark.sql.streaming.ui.retainedQueries", "10")
    .set("spark.cleaner.periodicGC.interval", "10s")
    .set("spark.sql.adaptive.enabled", "false")
    // The query's micro-batches run in a pool of their own, so that the iterative job's small
    // stages take turns with a 200-task stage instead of waiting behind it.
    .set("spark.scheduler.mode", "FAIR")
    .setAll(InProcessRenames.map("spark.sql.streaming.checkpointFileManagerClass" -> _))
    .set("spark.hadoop.fs.file.impl", classOf[InJvmLocalFileSystem].getName)
    // Hadoop caches file systems per scheme and user, whatever the settings: cached, this one
    // would serve the suites that run after the soak in the same JVM, and one an earlier suite
    // cached would serve the soak.
    .set("spark.hadoop.fs.file.impl.disable.cache", "true")

  def run(conf: SparkConf, plan: Plan): Run = {
    val checkpoint = Files.createTempDirectory(
      new File(sys.props("java.io.tmpdir")).toPath,
      "soak-checkpoint").toFile
    // The local dirs counted are this session's own, not those an earlier one left cached.
    KaeSparkAccess.clearLocalRootDirs()
    // Accumulators are counted per JVM: those of applications run before in it are left out.
    val before = KaeSparkAccess.accumulatorsRegistered
    Sessions.withSession(settings(conf)) { spark =>
      val (samples, driverGrew) = drive(spark, plan, checkpoint, before)
      val left = released(spark, before)
      Log.info(s"Soak released: $left")
      Run(samples, left, driverGrew)
    }
  }

  /**
   * Runs the iterative job beside the streaming query, sampling; stops the query at the end. The
   * driver's class histogram is taken once warm-up ends (the first sample past a third of the
   * shuffles, where [[growth]] starts) and after the last sample.
   */
  private def drive(
      spark: SparkSession,
      plan: Plan,
      checkpoint: File,
      before: Long): (Seq[Sample], Seq[String]) = {
    val query = stream(spark, plan.streamPartitions, checkpoint)
    val start = System.nanoTime()
    val samples = ArrayBuffer[Sample]()
    var warm = Option.empty[Map[String, Long]]
    var i = 0
    try {
      while (i < plan.shuffles || batches(query) < plan.batches) {
        if (ahead(plan, i, batches(query))) Thread.sleep(50)
        else {
          iterate(spark, i)
          i += 1
          if (i % plan.sampleEvery == 0) {
            val seconds = (System.nanoTime() - start) / 1e9
            samples += Sample(i, batches(query), seconds, measure(spark, before))
            Log.info(s"Soak sample: ${samples.last}")
            if (warm.isEmpty && i >= plan.shuffles / 3) warm = Some(HeapHistogram.take())
          }
        }
        query.exception.foreach(e => throw e)
      }
    } finally query.stop()
    val grew = warm.map(HeapHistogram.grown(_, HeapHistogram.take())).getOrElse(Nil)
    Log.info(s"Soak driver classes grown after warm-up: ${grew.mkString(", ")}")
    (samples.toSeq, grew)
  }

  /**
   * Whether the iterative job is ahead of its share: it keeps pace with the query, its shuffles
   * per micro-batch those of the plan, so that both reach their counts together and the samples
   * span the whole run. Unpaced, at 200 partitions it made ten shuffles per micro-batch, and took
   * a sample per 100 of them, long after its own count was reached.
   */
  private def ahead(plan: Plan, shuffles: Int, batches: Long): Boolean =
    batches < plan.batches && shuffles.toLong * plan.batches > batches * plan.shuffles

  /**
   * The driver's holdings once the cleaner has had its chance: a sample's counts lag the
   * collections, since the cleaner drops what was collected on a thread of its own. Collects
   * and waits until nothing more goes (at most 30 s).
   */
  private def released(spark: SparkSession, before: Long): Map[String, Double] = {
    val sc = spark.sparkContext
    def now() = Map(
      "shufflesTracked" -> KaeSparkAccess.shufflesTracked(sc).toDouble,
      "accumulators" -> (KaeSparkAccess.accumulatorsRegistered - before).toDouble,
      "localFiles" -> localDirs(new File(sc.getConf.get("spark.local.dir")))._1.toDouble
    )
    val deadline = System.nanoTime() + 30L * 1000000000L
    var last = now()
    var settled = false
    while (!settled && System.nanoTime() < deadline) {
      System.gc()
      Thread.sleep(500)
      val next = now()
      settled = next == last && next("shufflesTracked") == 0
      last = next
    }
    last
  }

  /** One iteration: a new shuffle of 4,000 records into 4 partitions, its result checked. */
  private def iterate(spark: SparkSession, i: Int): Unit = {
    val counted = spark.sparkContext.parallelize(0 until 4000, 4)
      .map(x => ((x * 31 + i) % 97, 1L)).reduceByKey(_ + _, 4).values.reduce(_ + _)
    require(counted == 4000L, s"iteration $i counted $counted records of 4000")
  }

  private def stream(spark: SparkSession, partitions: Int, checkpoint: File): StreamingQuery = {
    spark.conf.set("spark.sql.shuffle.partitions", partitions.toString)
    val sc = spark.sparkContext
    // The query's thread inherits the pool from the thread that starts it.
    sc.setLocalProperty("spark.scheduler.pool", "stream")
    try spark.readStream.format("rate").option("rowsPerSecond", "200").option("numPartitions", "2")
        .load().groupBy((col("value") % 100).as("k")).count()
        .writeStream.outputMode("update").format("noop")
        .trigger(Trigger.ProcessingTime("100 milliseconds"))
        .option("checkpointLocation", checkpoint.getPath).start()
    finally sc.setLocalProperty("spark.scheduler.pool", null)
  }

  private def batches(q: StreamingQuery): Long =
    Option(q.lastProgress).map(_.batchId + 1).getOrElse(0L)

  private def measure(spark: SparkSession, before: Long): Map[String, Double] = {
    val sc = spark.sparkContext
    val driver = JvmSample.take()
    KaeSparkAccess.drainListeners(sc)
    val (kaeRows, sparkRows) = KaeSparkAccess.uiStageRows(sc)
    val (files, bytes) = localDirs(new File(sc.getConf.get("spark.local.dir")))
    driver.map { case (k, v) => s"driver.$k" -> v } ++ executors(spark) ++ Map(
      "accumulators" -> (KaeSparkAccess.accumulatorsRegistered - before).toDouble,
      "shufflesTracked" -> KaeSparkAccess.shufflesTracked(sc).toDouble,
      "uiKaeStageRows" -> kaeRows.toDouble,
      "uiSparkStageRows" -> sparkRows.toDouble,
      "localFiles" -> files.toDouble,
      "localMiB" -> bytes / 1048576.0
    )
  }

  /**
   * Every executor's sample, summed (none in local mode, where the driver runs the tasks): a task
   * preferring each executor, again where one ran elsewhere.
   */
  private def executors(spark: SparkSession, tries: Int = 3): Map[String, Double] = {
    val sc = spark.sparkContext
    val locations = KaeSparkAccess.executorLocations(sc)
    if (locations.isEmpty) Map.empty
    else {
      val perJvm = sc.makeRDD(locations.map(l => (l, Seq(l))))
        .map(_ => JvmSample.withPid()).collect().toMap
      if (perJvm.size < locations.size && tries > 1) executors(spark, tries - 1)
      else
        JvmSample.Names.map(n => s"executors.$n" -> perJvm.values.map(_(n)).sum).toMap +
          ("executors.count" -> perJvm.size.toDouble)
    }
  }

  /** Files and bytes under `root`; walked again where a file went while it was walked. */
  private def localDirs(root: File, tries: Int = 3): (Long, Long) = {
    val walked = scala.util.Try {
      val walk = Files.walk(root.toPath)
      try {
        val sizes = walk.iterator().asScala.filter(Files.isRegularFile(_))
          .map(p => scala.util.Try(Files.size(p)).getOrElse(0L)).toSeq
        (sizes.size.toLong, sizes.sum)
      } finally walk.close()
    }
    if (walked.isSuccess || tries == 1) walked.get else localDirs(root, tries - 1)
  }

  /**
   * How `measure` grows, per 1,000 iterations, after warm-up: over the samples after the first
   * third, the median of the slopes between every two of them (Theil and Sen's estimate). One
   * sample read high, such as a heap read while a micro-batch held an execution page through all
   * of its readings, moves a least-squares slope over a short soak's five samples by tens of MiB
   * per 1,000 shuffles; the median of the pairs' slopes stays with the others.
   */
  def growth(samples: Seq[Sample], measure: String): Double = {
    val kept = samples.drop(samples.size / 3).filter(_.values.contains(measure))
    val slopes =
      for {
        i <- kept.indices
        j <- kept.indices if j > i && kept(j).shuffles != kept(i).shuffles
      } yield (kept(j).values(measure) - kept(i).values(measure)) /
        (kept(j).shuffles - kept(i).shuffles).toDouble
    if (slopes.isEmpty) 0.0
    else {
      val sorted = slopes.sorted
      val n = sorted.size
      (if (n % 2 == 1) sorted(n / 2) else (sorted(n / 2 - 1) + sorted(n / 2)) / 2) * 1000
    }
  }
}
