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

import java.util.concurrent.ConcurrentLinkedQueue

import io.github.kaeshuffle.deploy.Pairs
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{ExceptionFailure, SparkContext}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.{KaeSparkAccess, ShuffleFiles}

/**
 * A disk error while a map task writes its output, or when it commits it (injected into Spark's
 * own local-disk shuffle storage by [[FailingShuffleDataIO]]): the attempt fails with a message
 * that names the shuffle, map output and attempt; none of its files is left behind; the retried
 * attempt commits and the job's result is exactly right. Both writers.
 */
class WriteFailureSuite extends AnyFunSuite {

  /** (task id, error) of every task of `sc` that fails with an exception from now on. */
  private def failedTasks(sc: SparkContext): ConcurrentLinkedQueue[(Long, String)] = {
    val failures = new ConcurrentLinkedQueue[(Long, String)]()
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(e: SparkListenerTaskEnd): Unit = e.reason match {
        case f: ExceptionFailure => failures.add((e.taskInfo.taskId, f.toErrorString))
        case _ =>
      }
    })
    failures
  }

  private val writers = Seq(
    "block writer" -> Sessions.Kryo,
    "sort writer (map-side combine)" -> Sessions.Kryo)

  for (mode <- Seq("write", "commit"); (writer, serializer) <- writers) {
    test(s"disk error on $mode ($writer): clear failure, no partial output, retry commits") {
      val conf = Sessions.conf(Some("auto"), serializer, "local[2,2]") // 2 attempts per task
        .set("spark.shuffle.sort.io.plugin.class", classOf[FailingShuffleDataIO].getName)
        .set(FailingShuffleDataIO.MODE, mode)
        // The files are listed after the job: Spark's cleaner must not delete the shuffle (its
        // RDD is garbage by then) while the listing walks it (seen once: NoSuchFileException).
        .set("spark.cleaner.referenceTracking", "false")
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val failures = failedTasks(sc)
        val result =
          if (writer.startsWith("block")) Pairs.sumsOf(Pairs.partitioned(sc))
          else Pairs.pairs(sc).reduceByKey(_ + _, Pairs.Reducers).collect().toMap
        KaeSparkAccess.drainListeners(sc)
        assert(result == Pairs.expectedSums())
        assert(failures.size == 1, s"expected one failed attempt: $failures")
        val (failedMapId, message) = failures.peek()
        assert(
          message.contains("KAE Shuffle could not write the map output of shuffle 0") &&
            message.contains("attempt 0") && message.contains("No space left on device"),
          message
        )
        val root = ShuffleFiles.localRoot(sc)
        val leftovers = ShuffleFiles.files(root, s"shuffle_0_${failedMapId}_.*")
        assert(leftovers.isEmpty, s"the failed attempt left files: $leftovers")
        val committed = ShuffleFiles.files(root, "shuffle_0_\\d+_0\\.data").size
        assert(committed == Pairs.MapTasks, s"$committed map outputs committed")
      }
    }
  }

  for (oldProtocol <- Seq(true, false)) {
    test("an attempt lost after its commit and a retry that commits again, as two speculative " +
      s"copies do: one consistent output (old fetch protocol $oldProtocol)") {
      // With the old fetch protocol both attempts write the same file names (map id = partition)
      // and the second commit must keep one consistent pair; with the new one each attempt has
      // its own files and the driver keeps the retry's status.
      val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local[2,2]")
        .set("spark.shuffle.sort.io.plugin.class", classOf[FailingShuffleDataIO].getName)
        .set(FailingShuffleDataIO.MODE, "afterCommit")
        .set("spark.cleaner.referenceTracking", "false") // files are listed after the job
        .set("spark.shuffle.useOldFetchProtocol", oldProtocol.toString)
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val failures = failedTasks(sc)
        assert(Pairs.sumsOf(Pairs.partitioned(sc)) == Pairs.expectedSums())
        KaeSparkAccess.drainListeners(sc)
        assert(
          failures.size == 1 && failures.peek()._2.contains("lost after its commit"),
          failures.toString)
        val names = ShuffleFiles.files(ShuffleFiles.localRoot(sc), "shuffle_0_.*")
          .map(_.getFileName.toString)
        val data = names.count(_.matches("shuffle_0_\\d+_0\\.data"))
        assert(data == (if (oldProtocol) Pairs.MapTasks else Pairs.MapTasks + 1), names)
        val temporary = names.filter(_.matches(".*\\.(data|index)\\..+"))
        assert(temporary.isEmpty, s"temporary files left: $temporary")
      }
    }
  }
}
