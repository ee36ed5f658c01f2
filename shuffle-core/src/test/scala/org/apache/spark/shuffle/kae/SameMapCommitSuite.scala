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

import java.nio.file.Files
import java.util.concurrent.{CyclicBarrier, TimeUnit}

import io.github.kaeshuffle.format.{BlockDecoder, SegmentInputStream}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{HashPartitioner, ShuffleDependency, SparkEnv, TaskContext}
import org.apache.spark.shuffle.ShuffleHandle

/**
 * Two attempts of one map task committing their output at the same moment in one executor. With
 * `spark.shuffle.useOldFetchProtocol` a map output is named by its partition, not its attempt, so
 * both attempts write the same file names (a speculative copy, or a retry racing a zombie
 * attempt). Spark's resolver commits one and makes the other adopt it; the output must then be
 * wholly one attempt's, and both attempts must report its lengths (the map status the driver
 * keeps is either one).
 */
class SameMapCommitSuite extends AnyFunSuite {
  import SameMapCommitSuite._

  test("two attempts committing the same map output at once: one attempt's rows, both report " +
    "its lengths, no file left over") {
    val conf = LocalSpark.conf("local[2]").set("spark.shuffle.useOldFetchProtocol", "true")
    LocalSpark.withSpark(conf) { sc =>
      val dep = new ShuffleDependency[Int, String, String](
        sc.parallelize(Seq(0 -> ""), 1),
        new HashPartitioner(Reducers))
      val handle = dep.shuffleHandle
      // Two tasks at once (local[2]), each writing map 0 of the shuffle: attempt 1 writes twice
      // the rows of attempt 0, so the lengths tell which one was committed.
      val lengths = sc.parallelize(0 until 2, 2).map(attempt => attempt -> write(handle, attempt))
        .collect().toMap

      assert(lengths(0).toSeq == lengths(1).toSeq, "the attempts report different outputs")
      val outputs = ShuffleFiles.mapOutputs(sc, dep.shuffleId)
      assert(outputs.map(_.mapId) == Seq(0L), s"map outputs: $outputs")
      val output = outputs.head
      assert((0 until Reducers).map(output.partitionLength) == lengths(0).toSeq)
      assert(Files.size(output.data) == lengths(0).sum)
      val leftOver = ShuffleFiles.files(ShuffleFiles.localRoot(sc), s"shuffle_${dep.shuffleId}_.*")
        .map(_.getFileName.toString).filterNot(_.matches(
          "shuffle_\\d+_0_0\\.(data|index|checksum\\..+)"))
      assert(leftOver.isEmpty, s"files left: $leftOver")

      val rows = for {
        p <- output.segments.keys.toSeq
        raw = new SegmentInputStream(output.segment(p), new BlockDecoder(null))
        row <- dep.serializer.newInstance().deserializeStream(raw).asKeyValueIterator
      } yield row.asInstanceOf[(Int, String)]
      val attempts = rows.map(_._2.takeWhile(_ != ':')).distinct
      assert(attempts.size == 1, s"the output mixes attempts: $attempts")
      val winner = attempts.head.toInt
      assert(rows.map(_._1).sorted == (0 until rowsOf(winner)))
    }
  }
}

object SameMapCommitSuite {
  val Reducers = 4

  def rowsOf(attempt: Int): Int = 5000 * (attempt + 1)

  /** Both attempts finish feeding their writer together, so their commits meet. */
  private val BothWritten = new CyclicBarrier(2)

  /** Writes map 0 as `attempt` would; returns the partition lengths its writer reports. */
  def write(handle: ShuffleHandle, attempt: Int): Array[Long] = {
    val context = TaskContext.get()
    val writer = SparkEnv.get.shuffleManager
      .getWriter[Int, String](handle, 0L, context, context.taskMetrics().shuffleWriteMetrics)
    val rows = Iterator.tabulate(rowsOf(attempt))(i => i -> s"$attempt:row $i")
    writer.write(rows ++ new Iterator[Nothing] {
      private var waited = false
      // Asked once the rows are out: waits there for the other attempt, then says it is empty.
      override def hasNext: Boolean = {
        if (!waited) BothWritten.await(60, TimeUnit.SECONDS)
        waited = true
        false
      }
      override def next(): Nothing = throw new NoSuchElementException
    })
    writer.stop(true)
    writer.getPartitionLengths()
  }
}
