package io.github.kaeshuffle.it

import java.io.File
import java.net.ServerSocket
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

import scala.jdk.CollectionConverters._

import org.apache.spark.{HashPartitioner, SparkContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/** Real processes for the fault tests: Spark's external shuffle service, executor JVMs. */
object ClusterFaults {

  def freePort(): Int = {
    val s = new ServerSocket(0)
    try s.getLocalPort finally s.close()
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
        "-Dspark.shuffle.service.db.backend=ROCKSDB")
      val pb = new ProcessBuilder(s"${Sessions.sparkHome}/bin/spark-class",
        "org.apache.spark.deploy.ExternalShuffleService")
      pb.environment().put("SPARK_HOME", Sessions.sparkHome)
      pb.environment().put("SPARK_SHUFFLE_OPTS", opts.mkString(" "))
      pb.environment().put("SPARK_DAEMON_MEMORY", "256m")
      pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile))
      process = pb.start()
      awaitListening()
      this
    }

    private def awaitListening(): Unit = {
      val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60)
      while (System.nanoTime() < deadline) {
        if (!process.isAlive) {
          throw new AssertionError(s"The shuffle service exited:\n${Submit.tail(log)}")
        }
        try {
          new java.net.Socket("127.0.0.1", port).close()
          return
        } catch {
          case _: java.io.IOException => Thread.sleep(200)
        }
      }
      throw new AssertionError(s"The shuffle service did not listen on $port:\n${Submit.tail(log)}")
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
      val args = try new String(Files.readAllBytes(cmdline), "UTF-8").split("\u0000").toSeq
        catch { case _: java.io.IOException => Nil }
      val i = args.indexOf("--executor-id")
      if (args.contains("org.apache.spark.executor.CoarseGrainedExecutorBackend") &&
          args.contains(app) && i >= 0 && i + 1 < args.length) Some(args(i + 1) -> p) else None
    }.toMap
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

  /** 4 map tasks of (key, value) pairs; the keys collide across tasks. */
  def pairs(sc: SparkContext, perTask: Int = 20000): RDD[(String, Long)] =
    sc.parallelize(0 until 4, 4).flatMap { t =>
      (0 until perTask).iterator.map(j => pair(t, j, perTask))
    }

  def expectedSums(perTask: Int = 20000): Map[String, Long] =
    (0 until 4).flatMap(t => (0 until perTask).map(j => pair(t, j, perTask)))
      .groupMapReduce(_._1)(_._2)(_ + _)

  private def pair(t: Int, j: Int, perTask: Int): (String, Long) =
    (s"key-${(t * 7919 + j * 31) % 5000}", (t * perTask + j).toLong)

  /** Sums per key on the reduce side of a plain repartition (KAE's block writer). */
  def sumsOf(shuffled: RDD[(String, Long)]): Map[String, Long] =
    shuffled.mapPartitions { it =>
      val m = scala.collection.mutable.HashMap.empty[String, Long]
      it.foreach { case (k, v) => m(k) = m.getOrElse(k, 0L) + v }
      m.iterator
    }.collect().toMap

  def partitioned(sc: SparkContext): RDD[(String, Long)] =
    pairs(sc).partitionBy(new HashPartitioner(8))

  def tmpDir(prefix: String): Path =
    Files.createTempDirectory(new File(System.getProperty("java.io.tmpdir")).toPath, prefix)
}
