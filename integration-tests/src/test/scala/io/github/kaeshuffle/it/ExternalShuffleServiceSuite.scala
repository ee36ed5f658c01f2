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

import io.github.kaeshuffle.deploy.Pairs
import io.github.kaeshuffle.it.ClusterFaults._
import io.github.kaeshuffle.testing.MatrixTests

/**
 * KAE Shuffle's files served by Spark's own external shuffle service (a separate JVM started from
 * the Spark distribution, RocksDB registration store), to executors in other JVMs
 * (local-cluster): after the map stage every executor is killed, so the reduce stage can only
 * read through the service.
 */
class ExternalShuffleServiceSuite extends MatrixTests {

  private def mapKillReduce(service: ShuffleService)(between: => Unit): (Map[String, Long], Int) =
    ClusterFaults.mapKillReduce(withService(
      Sessions.conf(Some("auto"), Sessions.Kryo, "local-cluster[2,1,1024]"),
      service.port,
      service.localDir))(between)

  test("the reduce stage reads through the service after every executor is gone, " +
    "and after the service restarted and recovered its registrations from RocksDB") {
    val service = new ShuffleService(freePort(), tmpDir("ess-rocksdb")).start()
    try {
      val (result, mapTasksAfter) = mapKillReduce(service) {
        service.stop()
        assert(service.rocksDbFiles.nonEmpty, "no RocksDB store was written")
        service.start()
      }
      assert(result == Pairs.expectedSums(), "wrong result read through the shuffle service")
      val log = service.logText
      assert(
        mapTasksAfter == 0,
        s"the map stage ran again ($mapTasksAfter tasks): the " +
          s"service did not serve the files\n${log.takeRight(5000)}")
      assert(
        log.contains("Reloading registered executors"),
        "the restarted service did not reload registrations from RocksDB")
    } finally service.stop()
  }

  matrixTest(
    "a service restarted without its store cannot serve: fetch failure, map stage re-run, " +
      "same result") {
    val service = new ShuffleService(freePort(), tmpDir("ess-nodb"), db = false).start()
    try {
      val (result, mapTasksAfter) = mapKillReduce(service) {
        service.stop()
        service.start()
      }
      assert(result == Pairs.expectedSums())
      assert(mapTasksAfter >= 4, "the lost map output was not recomputed")
    } finally service.stop()
  }
}
