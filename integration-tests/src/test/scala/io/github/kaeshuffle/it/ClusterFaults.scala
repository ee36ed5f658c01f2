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
import java.net.{BindException, ServerSocket}
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.deploy.Pairs
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.yarn.server.api.AuxiliaryService

import org.apache.spark.{ShuffleDependency, SparkConf, SparkContext}
import org.apache.spark.network.sasl.SecretKeyHolder
import org.apache.spark.network.shuffle.ExternalBlockStoreClient
import org.apache.spark.network.util.{MapConfigProvider, TransportConf}
import org.apache.spark.rdd.ShuffledRDD
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/** Real processes for the fault tests: Spark's external shuffle service, executor JVMs. */
object ClusterFaults {

  def freePort(): Int = {
    val s = new ServerSocket(0)
    try s.getLocalPort
    finally s.close()
  }

  /**
   * Spark's standalone `ExternalShuffleService`, run by the distribution's `spark-class` in its
   * own JVM (as a standalone worker host runs it), keeping executor registrations in RocksDB
   * under `dbDir`. It serves only executors whose directories lie under its own local dirs
   * (Spark 4 checks), so applications put their `spark.local.dir` in `localDir`.
   */
  final class ShuffleService(val port: Int, val dbDir: Path, db: Boolean = true) {
    val localDir: Path = Files.createDirectories(dbDir.resolve("local"))
    private val log = dbDir.resolve(s"shuffle-service-$port.log")
    private var process: Process = _

    def start(): this.type = {
      Files.createDirectories(dbDir)
      val opts = Seq(
        s"-Dspark.shuffle.service.port=$port",
        s"-Dspark.local.dir=$dbDir,$localDir",
        s"-Dspark.shuffle.service.db.enabled=$db",
        "-Dspark.shuffle.service.db.backend=ROCKSDB"
      )
      val pb = new ProcessBuilder(
        s"${Sessions.sparkHome}/bin/spark-class",
        "org.apache.spark.deploy.ExternalShuffleService")
      pb.environment().put("SPARK_HOME", Sessions.sparkHome)
      pb.environment().put("SPARK_SHUFFLE_OPTS", opts.mkString(" "))
      pb.environment().put("SPARK_DAEMON_MEMORY", "256m")
      pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile))
      process = pb.start()
      awaitListening()
      this
    }

    private def awaitListening(): Unit =
      awaitCondition(s"the shuffle service listening on $port", 60) {
        if (!process.isAlive) {
          throw new AssertionError(s"The shuffle service exited:\n${Submit.tail(log)}")
        }
        accepts(port)
      }

    /** Stops the service's JVM (SIGTERM, then SIGKILL) and waits for it to exit. */
    def stop(): Unit = if (process != null) {
      process.destroy()
      if (!process.waitFor(20, TimeUnit.SECONDS)) process.destroyForcibly().waitFor()
      process = null
    }

    def logText: String =
      new String(Files.readAllBytes(log), java.nio.charset.StandardCharsets.ISO_8859_1)

    def rocksDbFiles: Seq[Path] =
      Files.walk(dbDir).iterator().asScala.filter(_.toString.contains("registeredExecutors"))
        .toSeq
  }

  /** This application's executor JVMs (children of the local-cluster workers), by executor id. */
  def executorProcesses(sc: SparkContext): Map[String, ProcessHandle] = {
    val app = sc.applicationId
    ProcessHandle.current().descendants().iterator().asScala.flatMap { p =>
      // /proc, not ProcessHandle.Info: the JDK cuts long command lines (executors carry the
      // whole test class path).
      val cmdline = java.nio.file.Paths.get(s"/proc/${p.pid()}/cmdline")
      val args =
        try new String(Files.readAllBytes(cmdline), "UTF-8").split("\u0000").toSeq
        catch { case _: java.io.IOException => Nil }
      val i = args.indexOf("--executor-id")
      if (args.contains("org.apache.spark.executor.CoarseGrainedExecutorBackend") &&
        args.contains(app) && i >= 0 && i + 1 < args.length) Some(args(i + 1) -> p)
      else None
    }.toMap
  }

  /** Whether something on this host accepts connections on `port`. */
  def accepts(port: Int): Boolean =
    try {
      new java.net.Socket("127.0.0.1", port).close()
      true
    } catch {
      case _: java.io.IOException => false
    }

  def awaitCondition(what: String, seconds: Int)(cond: => Boolean): Unit = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
    while (!cond) {
      if (System.nanoTime() > deadline) throw new AssertionError(s"timed out waiting: $what")
      Thread.sleep(100)
    }
  }

  /** Counts successful and failed map tasks (a re-run map stage shows up here). */
  final class MapTasks extends SparkListener {
    val ran = new AtomicInteger
    override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
      if (e.taskType == "ShuffleMapTask") ran.incrementAndGet()
  }

  /** Settings for an application whose executors register with a shuffle service. */
  def withService(conf: SparkConf, port: Int, localDir: Path): SparkConf =
    conf.set("spark.executor.memory", "512m")
      .set("spark.shuffle.service.enabled", "true")
      .set("spark.shuffle.service.port", port.toString)
      .set("spark.local.dir", localDir.toString)
      .set("spark.shuffle.io.maxRetries", "1")
      .set("spark.shuffle.io.retryWait", "1s")

  /**
   * In local-cluster mode with a shuffle service: runs the map stage, kills every executor,
   * calls `between`, asks for new executors and runs the reduce stage. Returns the reduce result
   * and how many map tasks ran after the executors were killed (0 when the service served all).
   */
  def mapKillReduce(conf: SparkConf)(between: => Unit): (Map[String, Long], Int) =
    Sessions.withTestingMode {
      // Executors must write under the service's local dirs: drop the JVM's cached local dirs.
      KaeSparkAccess.clearLocalRootDirs()
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val shuffled = Pairs.partitioned(sc).asInstanceOf[ShuffledRDD[String, Long, Long]]
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
        val result = Pairs.sumsOf(shuffled)
        KaeSparkAccess.drainListeners(sc)
        (result, mapTasks.ran.get)
      }
    }

  /**
   * Makes, inits and starts a NodeManager auxiliary service, again while its port is still taken
   * by one stopped a moment before in this JVM (Netty closes a stopped server's accepted
   * connections a little later). A NodeManager restart is a new process and never needs this.
   */
  def startRebinding(conf: Configuration)(make: => AuxiliaryService): AuxiliaryService = {
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
    var started: AuxiliaryService = null
    while (started == null) {
      val s = make
      try {
        s.init(conf)
        s.start()
        started = s
      } catch {
        case e: Exception if bindFailure(e) && System.nanoTime() < deadline =>
          s.stop()
          Thread.sleep(250)
      }
    }
    started
  }

  private def bindFailure(e: Throwable): Boolean =
    Iterator.iterate(e)(_.getCause).takeWhile(_ != null).exists(_.isInstanceOf[BindException])

  /**
   * Spark's external-shuffle client for `appId`, as an executor of that application makes it:
   * authenticating with `secret` (`spark.authenticate`), or without authentication when None.
   */
  def shuffleClient(appId: String, secret: Option[String]): ExternalBlockStoreClient = {
    val holder = secret.map { key =>
      new SecretKeyHolder {
        override def getSaslUser(appId: String): String = "sparkSaslUser"
        override def getSecretKey(appId: String): String = key
      }
    }
    val c = new ExternalBlockStoreClient(
      new TransportConf("shuffle", MapConfigProvider.EMPTY),
      holder.orNull,
      secret.isDefined,
      10000)
    c.init(appId)
    c
  }

  def tmpDir(prefix: String): Path =
    Files.createTempDirectory(new File(System.getProperty("java.io.tmpdir")).toPath, prefix)
}
