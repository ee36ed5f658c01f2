package io.github.kaeshuffle.it

import io.github.kaeshuffle.it.ClusterFaults._
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.ShuffleDependency
import org.apache.spark.rdd.ShuffledRDD
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * KAE Shuffle's files served by Spark's own external shuffle service (a separate JVM started from
 * the Spark distribution, RocksDB registration store), to executors in other JVMs
 * (local-cluster): after the map stage every executor is killed, so the reduce stage can only
 * read through the service.
 */
class ExternalShuffleServiceSuite extends AnyFunSuite {

  /**
   * Runs the map stage, kills every executor, calls `between` (with the service), asks for new
   * executors and runs the reduce stage. Returns the reduce result and how many map tasks ran
   * after the executors were killed.
   */
  private def mapKillReduce(service: ShuffleService)(between: => Unit)
      : (Map[String, Long], Int, Int) = Sessions.withTestingMode {
    // Executors must write under the service's local dir: drop the JVM's cached local dirs.
    KaeSparkAccess.clearLocalRootDirs()
    Sessions.withSession(Sessions.conf(Some("auto"), Sessions.Kryo, "local-cluster[2,1,1024]")
        .set("spark.executor.memory", "512m")
        .set("spark.shuffle.service.enabled", "true")
        .set("spark.shuffle.service.port", service.port.toString)
        .set("spark.local.dir", service.localDir.toString)
        .set("spark.shuffle.io.maxRetries", "1")
        .set("spark.shuffle.io.retryWait", "1s")) { spark =>
      val sc = spark.sparkContext
      assert(KaeSparkAccess.usesKaeShuffle(sc))
      val shuffled = partitioned(sc).asInstanceOf[ShuffledRDD[String, Long, Long]]
      val dep = shuffled.dependencies.head.asInstanceOf[ShuffleDependency[String, Long, Long]]
      awaitCondition("2 executors", 60)(KaeSparkAccess.executorIds(sc).size == 2)
      KaeSparkAccess.runMapStage(sc, dep)

      val before = KaeSparkAccess.executorIds(sc)
      assert(sc.killExecutors(before))
      awaitCondition("the executors to go", 60)(KaeSparkAccess.executorIds(sc).isEmpty)
      awaitCondition("the executor JVMs to exit", 60)(executorProcesses(sc).isEmpty)
      between
      val mapTasks = new MapTasks
      sc.addSparkListener(mapTasks)
      sc.requestExecutors(2)
      awaitCondition("new executors", 60)(KaeSparkAccess.executorIds(sc).size == 2)
      assert(KaeSparkAccess.executorIds(sc).toSet.intersect(before.toSet).isEmpty)
      val result = sumsOf(shuffled)
      KaeSparkAccess.drainListeners(sc)
      (result, mapTasks.ran.get, KaeSparkAccess.executorIds(sc).size)
    }
  }

  test("the reduce stage reads through the service after every executor is gone, " +
      "and after the service restarted and recovered its registrations from RocksDB") {
    val service = new ShuffleService(freePort(), tmpDir("ess-rocksdb")).start()
    try {
      val (result, mapTasksAfter, _) = mapKillReduce(service) {
        service.stop()
        assert(service.rocksDbFiles.nonEmpty, "no RocksDB store was written")
        service.start()
      }
      assert(result == expectedSums(), "wrong result read through the shuffle service")
      val log = service.logText
      assert(mapTasksAfter == 0, s"the map stage ran again ($mapTasksAfter tasks): the " +
        s"service did not serve the files\n${log.takeRight(5000)}")
      assert(log.contains("Reloading registered executors"),
        "the restarted service did not reload registrations from RocksDB")
    } finally service.stop()
  }

  test("a service restarted without its store cannot serve: fetch failure, map stage re-run, " +
      "same result") {
    val service = new ShuffleService(freePort(), tmpDir("ess-nodb"), db = false).start()
    try {
      val (result, mapTasksAfter, _) = mapKillReduce(service) {
        service.stop()
        service.start()
      }
      assert(result == expectedSums())
      assert(mapTasksAfter >= 4, "the lost map output was not recomputed")
    } finally service.stop()
  }
}
