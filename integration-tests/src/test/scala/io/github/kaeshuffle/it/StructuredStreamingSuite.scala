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

import io.github.kaeshuffle.testing.MatrixTests
import io.github.kaeshuffle.workloads.StreamingJobs

import org.apache.spark.network.util.JavaUtils
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Structured Streaming's stateful queries (an aggregation, `dropDuplicates` with a watermark, a
 * stream-stream join, `flatMapGroupsWithState`) under KAE Shuffle give, micro-batch by
 * micro-batch, the rows they give under Spark's shuffle; so do queries stopped after some
 * micro-batches and restarted from their checkpoint once more input arrived.
 */
class StructuredStreamingSuite extends MatrixTests {
  private val Files0 = 4
  private val Rows = 200
  private val Seed = 7L

  /**
   * Each query over `files` files read one per micro-batch; with `stopAfter`, stopped once it
   * read that many and restarted from its checkpoint when the rest were written.
   */
  private def runAll(
      codec: Option[String],
      files: Int,
      stopAfter: Option[Int]): Map[String, StreamingJobs.Outputs] = {
    val dir = Files.createTempDirectory(new File(sys.props("java.io.tmpdir")).toPath, "stream")
      .toFile
    // Without no-data micro-batches each batch reads one file, whenever the query stopped: batch
    // ids and contents are the same in every run.
    val conf = Sessions.conf(codec, Sessions.Kryo)
      .set("spark.sql.streaming.noDataMicroBatches.enabled", "false")
    try Sessions.withSession(conf) { spark =>
        assert(KaeSparkAccess.usesKaeShuffle(spark.sparkContext) == codec.isDefined)
        StreamingJobs.Names.map { name =>
          val input = new File(dir, s"$name-input")
          val checkpoint = new File(dir, s"$name-checkpoint")
          val outputs = new StreamingJobs.Outputs
          val first = stopAfter.getOrElse(files)
          StreamingJobs.writeInput(input, 0, first, Rows, Seed)
          StreamingJobs.runOnce(name, spark, input, checkpoint, outputs)
          if (first < files) {
            StreamingJobs.writeInput(input, first, files, Rows, Seed)
            StreamingJobs.runOnce(name, spark, input, checkpoint, outputs)
          }
          name -> outputs
        }.toMap
      }
    finally JavaUtils.deleteRecursively(dir)
  }

  private lazy val spark = runAll(None, Files0, None)
  private lazy val kae = runAll(Some("auto"), Files0, None)

  private def same(name: String, a: StreamingJobs.Outputs, e: StreamingJobs.Outputs): Unit = {
    assert(e.byBatch.size >= Files0, s"$name ran ${e.byBatch.size} micro-batches")
    assert(e.rows > 0, s"$name gave no rows")
    for ((batch, rows) <- e.byBatch) {
      assert(a.byBatch.get(batch).contains(rows), s"$name, micro-batch $batch differs")
    }
    assert(a.byBatch.keySet == e.byBatch.keySet, s"$name ran other micro-batches")
  }

  for (name <- StreamingJobs.Names) {
    test(s"$name: every micro-batch as under Spark's shuffle") {
      same(name, kae(name), spark(name))
      info(s"${spark(name).byBatch.size} micro-batches, ${spark(name).rows} rows")
    }
  }

  test("queries restarted from their checkpoint continue as under Spark's shuffle") {
    val restartedKae = runAll(Some("auto"), Files0, Some(2))
    for (name <- StreamingJobs.Names) {
      same(name, restartedKae(name), spark(name))
    }
  }

  matrixTest("queries restarted from their checkpoint, codec zstd, 30 micro-batches") {
    val restartedKae = runAll(Some("zstd"), 30, Some(11))
    val restartedSpark = runAll(None, 30, Some(11))
    for (name <- StreamingJobs.Names) {
      same(name, restartedKae(name), restartedSpark(name))
    }
  }
}
