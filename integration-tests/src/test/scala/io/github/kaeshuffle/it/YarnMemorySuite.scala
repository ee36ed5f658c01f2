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

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.apache.hadoop.yarn.conf.YarnConfiguration
import io.github.kaeshuffle.testing.MatrixSuite

/**
 * Executors in YARN containers whose physical memory the NodeManager enforces (it kills a
 * container whose processes' RSS exceeds it), with the smallest `memoryOverhead` Spark allows:
 * KAE Shuffle's direct memory (raw block buffers, decode windows, staging buffers) must fit in it,
 * as docs/tuning.md sizes it. The `small` workloads (250,000 records) shuffle tens of MB per run.
 * In the matrix (a cluster of its own and `small` data).
 */
class YarnMemorySuite extends MatrixSuite with MiniYarnPerSuite {
  protected val yarn = new MiniYarn(
    "kae-yarn-memory",
    conf => {
      conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, true)
      conf.setLong(YarnConfiguration.NM_CONTAINER_MON_INTERVAL_MS, 500L)
    }
  )

  test("executors with a 384m memoryOverhead, physical memory enforced, are never killed") {
    val workloads = Seq("sort", "groupby-skew-sql")
    val expected = Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
      workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.SMALL, 4)).toMap
    }
    val report = yarn.submit(
      "yarn-memory",
      "client",
      yarn.sparkConf("auto") ++ Map(
        "spark.executor.memory" -> "512m",
        // Spark's minimum; the container is 512m + 384m, rounded up to the scheduler's 256m steps.
        "spark.executor.memoryOverhead" -> "384m",
        "spark.shuffle.kae.blockSize" -> "1m"
      ),
      workloads,
      size = "small"
    )
    val text = report.lines.mkString("\n")
    report.assertSame(expected)
    assert(report.manager == Submit.Manager, text)
    // A container killed for its memory is an executor removed (and the job would run again).
    assert(report.long("executorsRemoved") == 0, s"an executor was lost:\n$text")
    assert(report.long("kae.write.codecCalls") > 0, text)
  }
}
