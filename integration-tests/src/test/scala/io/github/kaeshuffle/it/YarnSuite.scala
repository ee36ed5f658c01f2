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

import io.github.kaeshuffle.testing.MatrixSuite

import io.github.kaeshuffle.workloads.WorkloadJobs

/**
 * KAE Shuffle on YARN: Hadoop's MiniYARNCluster (a real ResourceManager and NodeManager in this
 * JVM, containers in their own JVMs), applications submitted by the Spark distribution's
 * `spark-submit` with our deployable jar in `spark.jars`, in client and cluster mode, and with
 * dynamic allocation. Results are compared with Spark's built-in shuffle; the executors' own logs
 * show which codec backend served. In the matrix: the gate runs YARN once, in
 * [[YarnShuffleServiceSuite]] (client mode, our NodeManager service, push-based merge).
 */
class YarnSuite extends MatrixSuite with MiniYarnPerSuite {
  protected val yarn = new MiniYarn("kae-yarn")

  private def check(report: Submit.Report, expected: Map[String, WorkloadJobs.Digest]): Unit = {
    report.assertSame(expected)
    assert(report.manager == Submit.Manager, s"manager ${report.manager}, log ${report.log}")
    assert(report.long("kae.write.codecCalls") > 0, report.lines.mkString("\n"))
    assert(report.long("kae.read.codecCalls") > 0, report.lines.mkString("\n"))
  }

  test("client mode: every workload gives Spark's results; executors use libdeflate") {
    val workloads = WorkloadJobs.Names
    val expected = Sessions.expected(workloads)
    val before = yarn.containerLogs().map(_._1).toSet
    val report = yarn.submit("yarn-client", "client", yarn.sparkConf("libdeflate"), workloads)
    check(report, expected)
    // One NodeManager: every block another executor wrote is on this host, and the reader
    // takes it from that executor's file (host-local read: mapped, or read whole when small)
    // instead of copying what was fetched.
    assert(
      report.long("kae.read.mappedBytes") + report.long("kae.read.fileReadBytes") > 0,
      report.lines.mkString("\n"))
    assert(report.long("kae.read.copiedBytes") == 0, report.lines.mkString("\n"))
    val logs = yarn.containerLogs().filterNot(l => before.contains(l._1)).map(_._2)
      .filter(_.contains("CoarseGrainedExecutorBackend"))
    assert(logs.nonEmpty, "no executor logs found")
    assert(
      logs.exists(_.contains("KAE Shuffle codec: codec 'libdeflate' -> libdeflate")),
      s"no executor log names the libdeflate backend:\n${logs.head.takeRight(3000)}"
    )
  }

  test("cluster mode, authentication and IO encryption on: executors use the KAEzip backend") {
    val workloads = Seq("sort", "lda-edges", "sql-join", "groupby-skew-sql")
    val expected = Sessions.expected(workloads)
    val before = yarn.containerLogs().map(_._1).toSet
    val report = yarn.submit(
      "yarn-cluster",
      "cluster",
      yarn.sparkConf("kaezip") ++ Map(
        // The counting zlib stand-in plays KAEzip on this x86 host (see docs/native-codec.md).
        "spark.shuffle.kae.kaezip.libraryPath" -> Sessions.standIn,
        "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true",
        // A secured cluster: every frame encrypted with the application's IO key.
        "spark.authenticate" -> "true",
        "spark.network.crypto.enabled" -> "true",
        "spark.io.encryption.enabled" -> "true"
      ),
      workloads
    )
    check(report, expected)
    val logs = yarn.containerLogs().filterNot(l => before.contains(l._1)).map(_._2)
    assert(
      logs.exists(l => l.contains("ApplicationMaster") && l.contains("uses KAE Shuffle")),
      "the driver's log (in the application master's container) shows no KAE shuffle"
    )
    assert(
      logs.exists(l =>
        l.contains("CoarseGrainedExecutorBackend") &&
          l.contains("KAE Shuffle codec: codec 'kaezip' -> kaezip")),
      "no executor log names the kaezip backend"
    )
  }

  test("dynamic allocation with shuffle tracking: executors come and go, results hold") {
    val workloads = Seq("sort", "lda-edges", "groupby-skew")
    val expected = Sessions.expected(workloads)
    val conf = yarn.sparkConf("auto") - "spark.executor.instances"
    val report = yarn.submit(
      "yarn-dynamic",
      "client",
      conf ++
        Map(
          "spark.dynamicAllocation.enabled" -> "true",
          "spark.dynamicAllocation.shuffleTracking.enabled" -> "true",
          "spark.dynamicAllocation.shuffleTracking.timeout" -> "2s",
          "spark.dynamicAllocation.executorIdleTimeout" -> "2s",
          "spark.dynamicAllocation.schedulerBacklogTimeout" -> "1s",
          "spark.dynamicAllocation.minExecutors" -> "0",
          "spark.dynamicAllocation.initialExecutors" -> "1",
          "spark.dynamicAllocation.maxExecutors" -> "2"
        ),
      workloads,
      pause = true
    )
    check(report, expected)
    // The application waits after each workload until an idle executor is released, so the
    // next workload has to get executors again.
    assert(report.long("executorsRemoved") >= 2, report.lines.mkString("\n"))
    assert(report.long("executorsAdded") >= 2, report.lines.mkString("\n"))
  }
}
