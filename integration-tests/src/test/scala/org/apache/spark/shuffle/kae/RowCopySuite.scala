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

import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.format.{BlockDecoder, SegmentInputStream}

import io.github.kaeshuffle.it.Sessions
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{SparkConf, TaskContext}
import org.apache.spark.scheduler.MapStatus
import org.apache.spark.serializer.KryoSerializer
import org.apache.spark.shuffle.{ShuffleHandle, ShuffleWriteMetricsReporter, ShuffleWriter}
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.catalyst.expressions.UnsafeRow
import org.apache.spark.sql.execution.exchange.ShuffleExchangeExec
import org.apache.spark.sql.functions.{col, concat, lit}

/**
 * Spark SQL hands our writers its rows without the defensive copy: one reused pair (and row) per
 * map task, as with Spark's own sort shuffle, and the results stay Spark's.
 */
class RowCopySuite extends AnyFunSuite {
  private val rows = 40000L
  private val maps = 4

  private def query(spark: SparkSession, partitions: Int): Seq[String] =
    spark.range(0, rows, 1, maps)
      .select((col("id") % 1000).as("k"), concat(lit("v"), col("id") % 97).as("s"))
      .repartition(partitions, col("k"))
      .groupBy("k", "s").count()
      .collect().map(_.mkString("|")).sorted.toSeq

  private def run(manager: Option[String], partitions: Int): Seq[String] = {
    val conf = Sessions.conf(manager.map(_ => "lz4"), Sessions.Kryo)
      .set("spark.sql.adaptive.enabled", "false")
    manager.foreach(conf.set("spark.shuffle.manager", _))
    Sessions.withSession(conf)(query(_, partitions))
  }

  // 8 partitions: Spark's bypass-merge range; 300: above it, where Spark's own sort shuffle uses
  // its serialized writer. Spark SQL decides the copy differently in the two ranges.
  for (partitions <- Seq(8, 300)) {
    test(s"SQL rows reach the shuffle writer uncopied ($partitions partitions)") {
      val expected = run(None, partitions)
      CopyCountingShuffleManager.reset()
      val actual = run(Some(classOf[CopyCountingShuffleManager].getName), partitions)
      assert(actual == expected)
      // One shuffle (the aggregation reuses the repartitioning); Spark SQL refills one mutable
      // pair per map task, where a copy would make every record a new object.
      val (fresh, reused) =
        (CopyCountingShuffleManager.fresh.get, CopyCountingShuffleManager.reused.get)
      assert(fresh + reused == rows, s"$fresh fresh + $reused reused records")
      assert(fresh == maps, s"$fresh records were new objects: Spark SQL copied the rows")
    }
  }
}

/**
 * Spark SQL's rows take our own row writer and reader ([[SqlRowWriter]], [[SqlRowReader]]) on
 * every Spark line we build for, and the bytes stay the format of Spark's `UnsafeRowSerializer`.
 */
class SqlRowPathSuite extends AnyFunSuite {
  private val conf = Sessions.conf(Some("lz4"), Sessions.Kryo)
    .set("spark.sql.adaptive.enabled", "false")

  private def exchange(spark: SparkSession) = spark.range(0, 5000, 1, 2)
    .select((col("id") % 10).as("k"), col("id").as("v"), concat(lit("s"), col("id")).as("s"))
    .repartition(4, col("k"))

  private def dependencyOf(df: DataFrame) = {
    val deps = df.queryExecution.executedPlan.collect { case e: ShuffleExchangeExec =>
      e.shuffleDependency
    }
    assert(deps.size == 1)
    deps.head
  }

  test("SQL exchanges take the row writer and reader, other serializers do not") {
    Sessions.withSession(conf) { spark =>
      val df = exchange(spark)
      assert(df.collect().length == 5000)
      val serializer = dependencyOf(df).serializer
      assert(SqlRowSerializerFields.rowFields(serializer).contains(3))
      assert(SqlRowSerializerFields.dataSizeMetric(serializer).isDefined)
      val kryo = new KryoSerializer(conf)
      assert(SqlRowSerializerFields.rowFields(kryo).isEmpty)
      assert(SqlRowSerializerFields.dataSizeMetric(kryo).isEmpty)
    }
  }

  test(
    "Spark's own deserializer reads the rows the writer wrote, and the data size metric counts") {
    Sessions.withSession(conf) { spark =>
      val df = exchange(spark)
      val expected = df.collect().map(r => (r.getLong(1), r.getString(2))).sorted.toSeq
      val dep = dependencyOf(df)
      val read = for {
        output <- ShuffleFiles.mapOutputs(spark.sparkContext, dep.shuffleId)
        p <- output.segments.keys.toSeq.sorted
        raw = new SegmentInputStream(output.segment(p), new BlockDecoder(null))
        (_, row) <- dep.serializer.newInstance().deserializeStream(raw).asKeyValueIterator
          .asInstanceOf[Iterator[(Int, UnsafeRow)]]
      } yield (row.getLong(1), row.getUTF8String(2).toString)
      assert(read.sorted == expected)
      val dataSize = df.queryExecution.executedPlan.collect { case e: ShuffleExchangeExec =>
        e.metrics("dataSize").value
      }.head
      assert(dataSize > 5000L * 16, s"data size metric: $dataSize")
    }
  }
}

/** Our manager, counting records that are a new object rather than the previous one refilled. */
class CopyCountingShuffleManager(conf: SparkConf) extends KaeShuffleManager(conf) {
  import CopyCountingShuffleManager._

  override def getWriter[K, V](
      handle: ShuffleHandle,
      mapId: Long,
      context: TaskContext,
      metrics: ShuffleWriteMetricsReporter): ShuffleWriter[K, V] = {
    val writer = super.getWriter[K, V](handle, mapId, context, metrics)
    new ShuffleWriter[K, V] {
      override def write(records: Iterator[Product2[K, V]]): Unit = {
        var previous: AnyRef = null
        writer.write(records.map { r =>
          val record = r.asInstanceOf[AnyRef]
          (if (record eq previous) reused else fresh).incrementAndGet()
          previous = record
          r
        })
      }
      override def stop(success: Boolean): Option[MapStatus] = writer.stop(success)
      override def getPartitionLengths(): Array[Long] = writer.getPartitionLengths()
    }
  }
}

object CopyCountingShuffleManager {
  val fresh = new AtomicLong
  val reused = new AtomicLong

  def reset(): Unit = {
    fresh.set(0)
    reused.set(0)
  }
}
