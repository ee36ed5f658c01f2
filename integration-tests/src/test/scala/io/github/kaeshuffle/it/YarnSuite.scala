package io.github.kaeshuffle.it

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.yarn.conf.YarnConfiguration
import org.apache.hadoop.yarn.server.MiniYARNCluster
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import io.github.kaeshuffle.workloads.WorkloadJobs

/**
 * KAE Shuffle on YARN: Hadoop's MiniYARNCluster (a real ResourceManager and NodeManager in this
 * JVM, containers in their own JVMs), applications submitted by the Spark distribution's
 * `spark-submit` with our deployable jar in `spark.jars`, in client and cluster mode, and with
 * dynamic allocation. Results are compared with Spark's built-in shuffle; the executors' own logs
 * show which codec backend served.
 */
class YarnSuite extends AnyFunSuite with BeforeAndAfterAll {
  private val ClusterName = "kae-yarn"
  private var cluster: MiniYARNCluster = _
  private var hadoopConfDir: Path = _

  override def beforeAll(): Unit = {
    super.beforeAll()
    val conf = new YarnConfiguration()
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 8192)
    conf.setInt(YarnConfiguration.NM_VCORES, 8)
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 256)
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false)
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false)
    conf.setFloat(
      "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", 99.9f)
    // The capacity scheduler with one queue (there is no capacity-scheduler.xml on the class
    // path); application masters may take the whole queue.
    conf.set("yarn.scheduler.capacity.root.queues", "default")
    conf.set("yarn.scheduler.capacity.root.default.capacity", "100")
    conf.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100")
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 1.0f)
    conf.set("yarn.nodemanager.delete.debug-delay-sec", "600")
    cluster = new MiniYARNCluster(ClusterName, 1, 1, 1)
    cluster.init(conf)
    cluster.start()
    // The ResourceManager publishes its real port shortly after start().
    ClusterFaults.awaitCondition("the ResourceManager address", 60)(
      !cluster.getConfig.get(YarnConfiguration.RM_ADDRESS).endsWith(":0"))
    hadoopConfDir = ClusterFaults.tmpDir("hadoop-conf")
  }

  override def afterAll(): Unit = {
    try if (cluster != null) cluster.stop() finally super.afterAll()
  }

  /** Spark settings for an application on the mini cluster, as a user's would be. */
  private def yarnConf(codec: String): Map[String, String] = {
    val hadoop = cluster.getConfig.iterator().asScala
      .map(e => s"spark.hadoop.${e.getKey}" -> e.getValue).toMap
    val javaHome = System.getProperty("java.home")
    hadoop ++ Map(
      "spark.yarn.jars" -> s"local:${Sessions.sparkHome}/jars/*",
      "spark.jars" -> Submit.distJar.getAbsolutePath,
      "spark.shuffle.manager" -> Submit.Manager,
      "spark.shuffle.kae.codec" -> codec,
      "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
      "spark.executor.instances" -> "2",
      "spark.executor.cores" -> "1",
      "spark.executor.memory" -> "512m",
      "spark.driver.memory" -> "768m",
      "spark.yarn.am.memory" -> "512m",
      "spark.ui.enabled" -> "false",
      "spark.sql.shuffle.partitions" -> "8",
      "spark.yarn.appMasterEnv.JAVA_HOME" -> javaHome,
      "spark.executorEnv.JAVA_HOME" -> javaHome,
      "spark.yarn.appMasterEnv.SPARK_LOCAL_IP" -> "127.0.0.1",
      "spark.executorEnv.SPARK_LOCAL_IP" -> "127.0.0.1")
  }

  private def submit(name: String, mode: String, conf: Map[String, String],
      workloads: Seq[String], pause: Boolean = false): Submit.Report =
    Submit.run(name, "yarn", mode, conf, workloads, pause,
      env = Map("HADOOP_CONF_DIR" -> hadoopConfDir.toString))

  /** The text of the stderr files of this cluster's containers whose logs mention `marker`. */
  private def containerLogs(): Seq[(Path, String)] = {
    val root = cluster.getTestWorkDir.toPath
    Files.walk(root).iterator().asScala
      .filter(p => p.getFileName.toString == "stderr" && Files.isRegularFile(p))
      .map(p => p -> new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)).toSeq
  }

  private def check(report: Submit.Report, expected: Map[String, WorkloadJobs.Digest]): Unit = {
    report.assertSame(expected)
    assert(report.manager == Submit.Manager, s"manager ${report.manager}, log ${report.log}")
    assert(report.long("kae.write.codecCalls") > 0, report.lines.mkString("\n"))
    assert(report.long("kae.read.codecCalls") > 0, report.lines.mkString("\n"))
  }

  test("client mode: every workload gives Spark's results; executors use libdeflate") {
    val workloads = WorkloadJobs.Names
    val expected = Sessions.expected(workloads)
    val before = containerLogs().map(_._1).toSet
    val report = submit("yarn-client", "client", yarnConf("libdeflate"), workloads)
    check(report, expected)
    // One NodeManager: every block another executor wrote is on this host, and the reader
    // maps it from that executor's directories (host-local read) instead of copying it.
    assert(report.long("kae.read.mappedBytes") > 0, report.lines.mkString("\n"))
    assert(report.long("kae.read.copiedBytes") == 0, report.lines.mkString("\n"))
    val logs = containerLogs().filterNot(l => before.contains(l._1)).map(_._2)
      .filter(_.contains("CoarseGrainedExecutorBackend"))
    assert(logs.nonEmpty, "no executor logs found")
    assert(logs.exists(_.contains("KAE Shuffle codec: codec 'libdeflate' -> libdeflate")),
      s"no executor log names the libdeflate backend:\n${logs.head.takeRight(3000)}")
  }

  test("cluster mode: the driver runs in YARN; executors use the KAEzip backend") {
    val workloads = Seq("sort", "lda-edges", "sql-join", "groupby-skew-sql")
    val expected = Sessions.expected(workloads)
    val before = containerLogs().map(_._1).toSet
    val report = submit("yarn-cluster", "cluster", yarnConf("kaezip") ++ Map(
      // The counting zlib stand-in plays KAEzip on this x86 host (see docs/native-codec.md).
      "spark.shuffle.kae.kaezip.libraryPath" -> Sessions.standIn,
      "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true"), workloads)
    check(report, expected)
    val logs = containerLogs().filterNot(l => before.contains(l._1)).map(_._2)
    assert(logs.exists(l => l.contains("ApplicationMaster") && l.contains("uses KAE Shuffle")),
      "the driver's log (in the application master's container) shows no KAE shuffle")
    assert(logs.exists(l => l.contains("CoarseGrainedExecutorBackend") &&
      l.contains("KAE Shuffle codec: codec 'kaezip' -> kaezip")),
      "no executor log names the kaezip backend")
  }

  test("dynamic allocation with shuffle tracking: executors come and go, results hold") {
    val workloads = Seq("sort", "lda-edges", "groupby-skew")
    val expected = Sessions.expected(workloads)
    val report = submit("yarn-dynamic", "client", yarnConf("auto") - "spark.executor.instances" ++
      Map(
        "spark.dynamicAllocation.enabled" -> "true",
        "spark.dynamicAllocation.shuffleTracking.enabled" -> "true",
        "spark.dynamicAllocation.shuffleTracking.timeout" -> "2s",
        "spark.dynamicAllocation.executorIdleTimeout" -> "2s",
        "spark.dynamicAllocation.schedulerBacklogTimeout" -> "1s",
        "spark.dynamicAllocation.minExecutors" -> "0",
        "spark.dynamicAllocation.initialExecutors" -> "1",
        "spark.dynamicAllocation.maxExecutors" -> "2"), workloads, pause = true)
    check(report, expected)
    // The application waits after each workload until an idle executor is released, so the
    // next workload has to get executors again.
    assert(report.long("executorsRemoved") >= 2, report.lines.mkString("\n"))
    assert(report.long("executorsAdded") >= 2, report.lines.mkString("\n"))
  }
}
