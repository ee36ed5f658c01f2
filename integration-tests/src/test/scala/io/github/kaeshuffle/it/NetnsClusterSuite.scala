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

import io.github.kaeshuffle.testing.{MatrixTests, TestScope}
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.scalatest.BeforeAndAfterAll

/**
 * Spark on YARN across test hosts in network namespaces ([[NetnsCluster]]: the driver and the
 * ResourceManager on one host, a NodeManager with our shuffle service on each of two others,
 * each host's link limited to 1 Gbit/s): every fetch from another executor crosses the links.
 * Results are compared with Spark's own shuffle on the same cluster.
 */
class NetnsClusterSuite extends MatrixTests with BeforeAndAfterAll {
  private val ServicePort = 7337
  private val serviceJar = new File(sys.props.getOrElse("kae.test.serviceJar", "missing"))
  private var started: NetnsCluster = _

  /** The cluster, started by the first test that runs (the gate may run none). */
  private def cluster: NetnsCluster = {
    NetnsCluster.unavailable.foreach(reason => cancel(s"no test hosts here: $reason"))
    if (started == null) {
      require(serviceJar.isFile, s"$serviceJar is missing: build with mvn verify from the root")
      started = new NetnsCluster(
        hosts = 3,
        rate = "1gbit",
        service = Map(
          "yarn.nodemanager.aux-services" -> "spark_shuffle",
          "yarn.nodemanager.aux-services.spark_shuffle.class" ->
            "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
          "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> serviceJar.getAbsolutePath,
          "spark.shuffle.service.port" -> ServicePort.toString
        )
      )
      started.start(ServicePort)
    }
    started
  }

  override def afterAll(): Unit = {
    try if (started != null) started.stop()
    finally super.afterAll()
  }

  test("workloads across three test hosts at 1 Gbit/s: Spark's results, every reducer host " +
    "fetched over the links") {
    val c = cluster
    val workloads = Seq("sort", "groupby-skew", "groupby-skew-sql")
    val kae = c.submit("netns-kae", c.sparkConf("auto"), workloads)
    assert(kae.manager == Submit.Manager, kae.lines.mkString("\n"))
    // Spark's own shuffle on the same cluster; the gate saves that application and takes
    // Spark's shuffle in local mode (the results do not depend on where tasks ran).
    if (TestScope.full) {
      val spark = c.submit(
        "netns-spark",
        c.sparkConf("auto") + ("spark.shuffle.manager" -> "sort"),
        workloads)
      for (w <- workloads) {
        assert(
          kae.digests.get(w) == spark.digests.get(w),
          s"$w: KAE ${kae.digests.get(w)}, " +
            s"Spark ${spark.digests.get(w)} (logs ${kae.log}, ${spark.log})")
      }
    } else {
      kae.assertSame(Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
        workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)).toMap
      })
    }
    val byHost = kae.remoteBytesByHost
    val reducers = c.nodeManagers.size
    assert(byHost.size == reducers, s"reduce tasks ran on ${byHost.keys}, not on $reducers hosts")
    for ((host, bytes) <- byHost) assert(bytes > 0, s"$host fetched nothing from another host")
    assert(byHost.keySet.forall(_.startsWith("198.18.0.")), s"hosts: ${byHost.keys}")
  }
}
