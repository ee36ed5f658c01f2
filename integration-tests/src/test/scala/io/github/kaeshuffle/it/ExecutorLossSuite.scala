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

import java.util.concurrent.atomic.{AtomicBoolean, AtomicReference}

import io.github.kaeshuffle.deploy.Pairs
import io.github.kaeshuffle.it.ClusterFaults._
import io.github.kaeshuffle.testing.MatrixTests

import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerStageSubmitted,
  SparkListenerTaskStart
}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * An executor JVM killed (SIGKILL) while the reduce stage runs, with no shuffle service: its map
 * output is gone, reducers fail to fetch it, Spark re-runs the lost map tasks and the job still
 * gives the right result.
 */
class ExecutorLossSuite extends MatrixTests {

  for (codec <- Seq("auto", "zstd")) {
    gateTestIf(codec == "auto")(
      s"executor killed during the reduce stage ($codec): map stage re-run, right result") {
      val killed = new AtomicReference[String]()
      val result = Sessions.withTestingMode {
        Sessions.withSession(Sessions.conf(Some(codec), Sessions.Kryo, "local-cluster[2,1,1024]")
          .set("spark.executor.memory", "512m")
          .set("spark.shuffle.io.maxRetries", "1")
          .set("spark.shuffle.io.retryWait", "1s")) { spark =>
          val sc = spark.sparkContext
          assert(KaeSparkAccess.usesKaeShuffle(sc))
          awaitCondition("2 executors", 60)(KaeSparkAccess.executorIds(sc).size == 2)
          val mapTasks = new MapTasks
          val reduceStage = new AtomicReference[Integer]()
          val fired = new AtomicBoolean()
          sc.addSparkListener(mapTasks)
          sc.addSparkListener(new SparkListener {
            // The reduce stage is the one with 8 tasks (the map stage has 4).
            override def onStageSubmitted(e: SparkListenerStageSubmitted): Unit =
              if (e.stageInfo.numTasks == 8) reduceStage.compareAndSet(null, e.stageInfo.stageId)
            override def onTaskStart(e: SparkListenerTaskStart): Unit =
              if (reduceStage.get != null && e.stageId == reduceStage.get &&
                fired.compareAndSet(false, true)) {
                // Kill the executor that is not running this task, so it dies holding map output.
                val victim = executorProcesses(sc).filter(_._1 != e.taskInfo.executorId)
                  .headOption.orElse(executorProcesses(sc).headOption)
                victim.foreach { case (id, p) =>
                  killed.set(id)
                  p.destroyForcibly()
                }
              }
          })
          val sums = Pairs.partitioned(sc).mapPartitions { it =>
            Thread.sleep(700) // keep the reduce stage running while an executor dies
            it
          }
          val r = Pairs.sumsOf(sums)
          KaeSparkAccess.drainListeners(sc)
          assert(killed.get != null, "no executor was killed")
          assert(
            mapTasks.ran.get > 4,
            s"the lost map output was not recomputed " +
              s"(${mapTasks.ran.get} map tasks ran)")
          r
        }
      }
      assert(
        result == Pairs.expectedSums(),
        s"wrong result after executor ${killed.get} was killed")
    }
  }
}
