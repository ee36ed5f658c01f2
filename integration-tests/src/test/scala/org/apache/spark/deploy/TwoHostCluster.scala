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
package org.apache.spark.deploy

import java.nio.file.Files

import org.apache.spark.SparkConf
import org.apache.spark.deploy.master.Master
import org.apache.spark.deploy.worker.Worker
import org.apache.spark.rpc.RpcEnv

/**
 * A Spark standalone cluster whose workers are on different hosts as far as Spark can tell: the
 * master on 127.0.0.1 and one worker on each of `hosts` (other loopback addresses, which Linux
 * serves without set-up). Executors run in JVMs of their own, launched by the workers, and take
 * their worker's address as their host. Spark's local-cluster puts every executor on one host,
 * where the scheduler never runs a speculative copy beside the original; here it does. Needs
 * Spark's testing mode (spark.testing and spark.test.home, Sessions.withTestingMode), as
 * local-cluster does, for the executors' Spark home and class path.
 */
final class TwoHostCluster private (master: RpcEnv, workers: Seq[RpcEnv]) {

  /** The URL to give SparkConf.setMaster. */
  val masterUrl: String = s"spark://127.0.0.1:${master.address.port}"

  def stop(): Unit = {
    // Workers first, so they do not reconnect to a master that went away.
    workers.foreach(_.shutdown())
    workers.foreach(_.awaitTermination())
    master.shutdown()
    master.awaitTermination()
  }
}

object TwoHostCluster {
  val Hosts: Seq[String] = Seq("127.0.0.2", "127.0.0.3")

  def start(coresPerWorker: Int, memoryMbPerWorker: Int): TwoHostCluster = {
    val conf = new SparkConf(false)
      .set("spark.master.rest.enabled", "false")
      .set("spark.shuffle.service.enabled", "false")
    val (master, _, _) = Master.startRpcEnvAndEndpoint("127.0.0.1", 0, 0, conf)
    val url = s"spark://127.0.0.1:${master.address.port}"
    val workers = Hosts.zipWithIndex.map { case (host, i) =>
      val workDir = Files.createTempDirectory(s"kae-worker-$i").toString
      Worker.startRpcEnvAndEndpoint(
        host,
        0,
        0,
        coresPerWorker,
        memoryMbPerWorker,
        Array(url),
        workDir,
        Some(i + 1),
        conf)
    }
    new TwoHostCluster(master, workers)
  }
}
