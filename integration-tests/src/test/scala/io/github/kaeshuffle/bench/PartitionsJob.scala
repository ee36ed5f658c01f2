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

import io.github.kaeshuffle.codec.DirectMemory
import java.lang.management.{BufferPoolMXBean, ManagementFactory, MemoryType}
import java.nio.file.{Files, Paths}
import java.util.concurrent.atomic.AtomicLong
import javax.management.{Notification, NotificationEmitter, NotificationListener}
import javax.management.openmbean.CompositeData

import scala.jdk.CollectionConverters._

import com.sun.management.GarbageCollectionNotificationInfo

import org.apache.spark.SparkConf
import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{col, concat, count, lit, sum}

/**
 * One run of the partition-count benchmark, in a JVM of its own so that its peak RSS is its own
 * (what `/usr/bin/time -f %M` reports around `spark-submit`): a Spark SQL job that repartitions
 * `rows` rows (`spark.range(0, rows, 1, 4)`, a key column with 100,000 values and a short
 * string column) into `partitions` partitions by key and counts each key, on local[2] with AQE
 * off. Prints one `RESULT` line: wall time, the check values, peak RSS (`VmHWM`), the most heap
 * in use after any collection, the most direct memory in use (sampled: the JVM's direct buffer
 * pool and KAE Shuffle's mapped buffers), GC time, the tasks' CPU as Spark measures it, apart:
 * deserializing each task (the same work whatever the shuffle manager, and at many partitions
 * most of a task) and running it, and each stage's wall time.
 *
 * Arguments: partitions, rows, then the configuration's settings as `key=value`.
 */
object PartitionsJob {
  def main(args: Array[String]): Unit = {
    val partitions = args(0).toInt
    val rows = args(1).toLong
    val local = Files.createTempDirectory("kae-partitions")
    val conf = new SparkConf(false)
      .setMaster("local[2]")
      .setAppName(s"partitions-$partitions")
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.local.dir", local.toString)
      .set("spark.sql.adaptive.enabled", "false")
    args.drop(2).map(_.split("=", 2)).foreach(kv => conf.set(kv(0), kv(1)))
    val afterGc = new AfterGcPeak
    val pool = ManagementFactory.getPlatformMXBeans(classOf[BufferPoolMXBean]).asScala
      .find(_.getName == "direct")
    // KAE Shuffle maps its large buffers from the kernel, outside the JVM's pool (DirectMemory).
    val direct = new PeakSampler(
      20,
      () => pool.map(_.getMemoryUsed).getOrElse(0L) + DirectMemory.mappedBytes())
    val spark = SparkSession.builder().config(conf).getOrCreate()
    val tasks = new TaskCpu
    spark.sparkContext.addSparkListener(tasks)
    val stages = new StageTimes
    spark.sparkContext.addSparkListener(stages)
    try {
      val t0 = System.nanoTime()
      val counts = spark.range(0, rows, 1, 4)
        .select(
          (col("id") % 100000).as("key"),
          concat(lit("v"), (col("id") % 997).cast("string")).as("s"))
        .repartition(partitions, col("key"))
        .groupBy("key").count()
        .agg(count(lit(1)), sum("count"))
        .collect().head
      val wall = (System.nanoTime() - t0) / 1e9
      KaeSparkAccess.drainListeners(spark.sparkContext)
      direct.stop()
      val gcMs = ManagementFactory.getGarbageCollectorMXBeans.asScala
        .map(_.getCollectionTime).sum
      val cpu = ProcessCpu.seconds()
      println(s"RESULT wall=$wall groups=${counts.getLong(0)} rows=${counts.getLong(1)} " +
        s"rss=${peakRss()} heapAfterGc=${afterGc.peak} direct=${direct.peak} gcMs=$gcMs cpu=$cpu " +
        s"taskCpu=${tasks.run.get / 1e9} deserializeCpu=${tasks.deserialize.get / 1e9} " +
        s"stages=${stages.text}")
    } finally spark.stop()
  }

  /** The process's peak resident set in bytes, from Linux's /proc/self/status (0 elsewhere). */
  private def peakRss(): Long = {
    val status = Paths.get("/proc/self/status")
    if (!Files.isReadable(status)) 0L
    else Files.readAllLines(status).asScala.find(_.startsWith("VmHWM:"))
      .map(_.replaceAll("[^0-9]", "").toLong * 1024).getOrElse(0L)
  }

  /** Spark's own CPU measures of every task: deserializing it, and running it. */
  private final class TaskCpu extends SparkListener {
    val run = new AtomicLong
    val deserialize = new AtomicLong
    override def onTaskEnd(end: SparkListenerTaskEnd): Unit =
      Option(end.taskMetrics).foreach { m =>
        run.addAndGet(m.executorCpuTime)
        deserialize.addAndGet(m.executorDeserializeCpuTime)
      }
  }

  /**
   * Each stage's wall time, submission to completion, in stage order: the map stage (4 tasks
   * writing `partitions` partitions), the reduce stage (`partitions` tasks, each reading 4
   * segments and writing one row to the last shuffle) and the last stage (one task reading
   * `partitions` segments).
   */
  private final class StageTimes extends SparkListener {
    private val seconds = new java.util.concurrent.ConcurrentSkipListMap[Int, Double]()
    override def onStageCompleted(done: SparkListenerStageCompleted): Unit = {
      val info = done.stageInfo
      for (start <- info.submissionTime; end <- info.completionTime)
        seconds.put(info.stageId, (end - start) / 1e3)
    }
    def text: String = seconds.values.asScala.mkString("/")
  }

  /** The most heap in use right after a collection: the live set the job needed. */
  private final class AfterGcPeak extends NotificationListener {
    @volatile var peak = 0L
    private val heapPools = ManagementFactory.getMemoryPoolMXBeans.asScala
      .filter(_.getType == MemoryType.HEAP).map(_.getName).toSet
    ManagementFactory.getGarbageCollectorMXBeans.asScala.foreach {
      case e: NotificationEmitter => e.addNotificationListener(this, null, null)
      case _ =>
    }

    override def handleNotification(n: Notification, handback: Any): Unit =
      if (n.getType == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
        val info = GarbageCollectionNotificationInfo.from(n.getUserData.asInstanceOf[CompositeData])
        val used = info.getGcInfo.getMemoryUsageAfterGc.asScala
          .collect { case (pool, usage) if heapPools(pool) => usage.getUsed }.sum
        peak = math.max(peak, used)
      }
  }
}
