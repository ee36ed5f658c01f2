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

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.util.Random
import java.util.concurrent.ConcurrentSkipListMap

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{DataFrame, Dataset, Row, SparkSession}
import org.apache.spark.sql.functions.{col, count, expr, sum, timestamp_seconds}
import org.apache.spark.sql.streaming.{GroupState, GroupStateTimeout, OutputMode}
import org.apache.spark.sql.types.{LongType, StructType}

/**
 * Structured Streaming queries that shuffle in every micro-batch, over files written from a seed
 * (one file per micro-batch, read in order): a stateful aggregation, `dropDuplicates` with a
 * watermark, a stream-stream join and `flatMapGroupsWithState`. Each micro-batch's output is kept
 * by batch id, its rows sorted, so two runs compare batch by batch. A run may stop after some
 * files and restart from its checkpoint when the rest are there.
 */
object StreamingJobs {
  val Names: Seq[String] = Seq("aggregation", "dedup", "join", "group-state")

  private val Schema = new StructType()
    .add("id", LongType).add("key", LongType).add("value", LongType).add("ts", LongType)

  /**
   * Writes `files` CSV files of `rows` events into `dir/events` and `dir/clicks`: event time
   * rises by 10 s per file with some events late by up to 20 s, keys over 50 values, and a tenth
   * of the events repeated. Modification times rise with the file, which orders them as read.
   */
  def writeInput(dir: File, from: Int, until: Int, rows: Int, seed: Long): Unit =
    for (stream <- Seq("events", "clicks"); f <- from until until) {
      val r = new Random(seed * 1009 + f * 7 + stream.length)
      val lines = (0 until rows).flatMap { i =>
        val id = f.toLong * rows + i
        val ts = 1700000000L + f * 10L + r.nextInt(10) - (if (r.nextInt(8) == 0) 20 else 0)
        val line = s"$id,${r.nextInt(50)},${r.nextInt(1000)},$ts"
        if (r.nextInt(10) == 0) Seq(line, line) else Seq(line)
      }
      val out = new File(dir, f"$stream/part-$f%05d.csv")
      out.getParentFile.mkdirs()
      Files.write(out.toPath, lines.mkString("", "\n", "\n").getBytes(StandardCharsets.UTF_8))
      out.setLastModified(1700000000000L + f * 1000L)
    }

  private def stream(spark: SparkSession, dir: File, name: String): DataFrame =
    spark.readStream.schema(Schema).option("maxFilesPerTrigger", "1")
      .csv(new File(dir, name).getPath)
      .withColumn("time", timestamp_seconds(col("ts")))

  /** The query `name` over the events (and clicks) under `input`. */
  def query(name: String, spark: SparkSession, input: File): (Dataset[_], OutputMode) = {
    import spark.implicits._
    val events = stream(spark, input, "events")
    name match {
      case "aggregation" =>
        val q = events.groupBy("key").agg(count("*").as("n"), sum("value").as("total"))
        (q, OutputMode.Update())
      case "dedup" =>
        (
          events.withWatermark("time", "30 seconds").dropDuplicates("id", "time"),
          OutputMode.Append())
      case "join" =>
        val clicks = stream(spark, input, "clicks").select(
          col("key").as("ckey"),
          col("value").as("cvalue"),
          col("time").as("ctime"))
          .withWatermark("ctime", "30 seconds")
        val q = events.withWatermark("time", "30 seconds").join(
          clicks,
          expr("key = ckey AND ctime BETWEEN time AND time + interval 5 seconds"))
          .select("id", "key", "value", "cvalue", "ts")
        (q, OutputMode.Append())
      case "group-state" =>
        val q = events.as[(Long, Long, Long, Long, java.sql.Timestamp)]
          .groupByKey(_._2)
          .flatMapGroupsWithState(OutputMode.Update(), GroupStateTimeout.NoTimeout())(
            runningTotal _)
        (q, OutputMode.Update())
      case other => throw new IllegalArgumentException(
          s"Unknown streaming query '$other': use one of ${Names.mkString(", ")}.")
    }
  }

  /** A key's events so far and their sum, emitted with the largest id of this batch's events. */
  private def runningTotal(
      key: Long,
      events: Iterator[(Long, Long, Long, Long, java.sql.Timestamp)],
      state: GroupState[(Long, Long)]): Iterator[(Long, Long, Long, Long)] = {
    val seen = events.toSeq
    val (n, total) = state.getOption.getOrElse((0L, 0L))
    val next = (n + seen.size, total + seen.map(_._3).sum)
    state.update(next)
    Iterator((key, next._1, next._2, seen.map(_._1).max))
  }

  /** Each micro-batch's rows, as sorted strings by batch id. */
  final class Outputs {
    private val batches = new ConcurrentSkipListMap[Long, Seq[String]]()

    val sink: (Dataset[Row], Long) => Unit = (batch, id) => {
      batches.put(id, batch.collect().map(_.toString).sorted.toSeq)
      ()
    }

    def byBatch: Map[Long, Seq[String]] = batches.asScala.toMap

    def rows: Int = batches.values().asScala.map(_.size).sum
  }

  /** Runs `name` over what `input` holds now until it has read it all, then stops it. */
  def runOnce(
      name: String,
      spark: SparkSession,
      input: File,
      checkpoint: File,
      outputs: Outputs): Unit = {
    val (q, mode) = query(name, spark, input)
    val running = q.toDF().writeStream.outputMode(mode)
      .option("checkpointLocation", checkpoint.getPath)
      .foreachBatch(outputs.sink).start()
    try running.processAllAvailable()
    finally running.stop()
  }
}
