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

import java.io.{File, FileOutputStream}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.Properties
import java.util.concurrent.TimeUnit
import java.util.jar.{JarEntry, JarOutputStream}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.workloads.WorkloadJobs

import org.apache.spark.launcher.SparkLauncher
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Submits [[io.github.kaeshuffle.deploy.WorkloadApp]] as a user would: `spark-submit` of the
 * Spark distribution the build installed, our deployable jar passed with `spark.jars` or the
 * extra class paths, and an application jar holding only the workloads (never our shuffle).
 */
object Submit {
  val Manager = "org.apache.spark.shuffle.kae.KaeShuffleManager"
  val WorkloadApp = "io.github.kaeshuffle.deploy.WorkloadApp"
  val ShuffleServiceApp = "io.github.kaeshuffle.deploy.ShuffleServiceApp"
  val MergedChunkDamageApp = "io.github.kaeshuffle.deploy.MergedChunkDamageApp"
  val NodeLossApp = "io.github.kaeshuffle.deploy.NodeLossApp"
  val SqlApp = "io.github.kaeshuffle.deploy.SqlApp"

  /** shuffle-core's shaded jar, built by the reactor before this module's tests. */
  def distJar: File = {
    val f = new File(sys.props.getOrElse("kae.test.distJar", "missing"))
    require(f.isFile, s"The deployable jar $f is missing: build with mvn verify from the root")
    f
  }

  /** Whether the deployable jar carries the native library for `arch` (linux/<arch>/...). */
  def carriesLibrary(arch: String): Boolean = {
    val zip = new java.util.zip.ZipFile(distJar)
    try zip.stream().anyMatch(e => e.getName.startsWith(s"linux/$arch/libkaeshuffle-"))
    finally zip.close()
  }

  private lazy val appJarFile: File = {
    val classes = new File(sys.props.getOrElse("kae.test.appClasses", "target/classes")).toPath
    val jar = new File(System.getProperty("java.io.tmpdir"), "kae-workload-app.jar")
    jar.getParentFile.mkdirs()
    val out = new JarOutputStream(new FileOutputStream(jar))
    try {
      val files = Files.walk(classes).iterator().asScala.filter(Files.isRegularFile(_)).toSeq
      for (f <- files.sortBy(_.toString)) {
        val name = classes.relativize(f).toString.replace(File.separatorChar, '/')
        // The workloads and their Spark access only: our shuffle comes from the deployable jar.
        if (name.startsWith("io/github/kaeshuffle/workloads/") ||
          name.startsWith("io/github/kaeshuffle/deploy/") ||
          name.startsWith("io/github/kaeshuffle/bench/ShuffleTotals") ||
          name.startsWith("org/apache/spark/shuffle/kae/KaeSparkAccess")) {
          out.putNextEntry(new JarEntry(name))
          Files.copy(f, out)
          out.closeEntry()
        }
      }
    } finally out.close()
    jar
  }

  def appJar: File = synchronized(appJarFile)

  /**
   * Our deployable jar in `spark.jars`, as users ship it. Spark 3.5 creates the executors'
   * shuffle manager before it loads `spark.jars`, so there, as docs/yarn.md says, the executors'
   * class path names the jar too: `executorPath` is where executors see it (on YARN, the file
   * name of the copy in each container's directory).
   */
  def withJars(executorPath: String = distJar.getAbsolutePath): Map[String, String] = {
    val jars = Map("spark.jars" -> distJar.getAbsolutePath)
    if (KaeSparkAccess.executorsLoadJarsFirst) jars
    else jars + ("spark.executor.extraClassPath" -> executorPath)
  }

  /**
   * Our deployable jar on the driver's and executors' class paths, as docs/yarn.md shows;
   * `executorPath` as the executors see it (on YARN, with spark.jars, the jar's name in each
   * container's working directory).
   */
  def onClassPath(executorPath: String = distJar.getAbsolutePath): Map[String, String] = Map(
    "spark.driver.extraClassPath" -> distJar.getAbsolutePath,
    "spark.executor.extraClassPath" -> executorPath)

  /** What one application reported (see WorkloadApp), and its output for failure messages. */
  case class Report(lines: Seq[String], log: Path) {
    private def values(key: String): Seq[Seq[String]] =
      lines.map(_.split(" ").toSeq).filter(_.head == key).map(_.tail)

    /** The lines `key <name> <values...>` by name (SqlApp's `query` and `sorted` digests, ...). */
    def named(key: String): Seq[(String, Seq[String])] = values(key).map(v => v.head -> v.tail)
    def digests: Map[String, (Long, Long)] =
      values("workload").map(v => v(0) -> (v(1).toLong, v(2).toLong)).toMap
    def manager: String = values("manager").headOption.map(_.head).getOrElse("?")
    def long(key: String): Long = values(key).headOption.map(_.head.toLong).getOrElse(-1L)
    def javaVersions: Seq[String] = values("java").headOption.getOrElse(Nil)
    def architectures: Seq[String] = values("arch").headOption.getOrElse(Nil)

    /** Each workload's time in the application, in seconds (its jobs, not the start). */
    def seconds: Map[String, Double] =
      values("seconds").map(v => v(0) -> v(1).toDouble).toMap

    /**
     * A ShuffleServiceApp's run: its executors were gone before the reduce stage, which read every
     * map output through the service (no map task ran again), right, with our manager.
     */
    def assertServedThroughService(): Unit = {
      val text = lines.mkString("\n")
      assert(lines.contains("executorsGone true"), text)
      assert(lines.contains("resultOk true"), text)
      assert(lines.contains("mapTasksAfter 0"), s"the map stage ran again:\n$text")
      assert(manager == Manager, text)
    }

    /** [[assertServedThroughService]], for a run that waited at its gate too. */
    def assertServedPastGate(): Unit = {
      assertServedThroughService()
      assert(lines.contains("gateOpened true"), lines.mkString("\n"))
    }

    /** Per host whose tasks read a shuffle: the bytes they fetched from other executors. */
    def remoteBytesByHost: Map[String, Long] =
      values("remoteBytesRead").map(v => v(0) -> v(1).toLong).toMap

    def assertSame(expected: Map[String, WorkloadJobs.Digest]): Unit = {
      for ((w, exp) <- expected) {
        val got = digests.get(w)
        assert(
          got.contains((exp.records, exp.hash)),
          s"$w: the application reported $got, Spark's shuffle gives $exp (log: $log)")
      }
    }
  }

  /**
   * Runs the application to its end and returns its report; fails with the tail of its log when
   * it exits with an error or takes longer than `timeoutSeconds`.
   */
  def run(
      name: String,
      master: String,
      deployMode: String,
      conf: Map[String, String],
      workloads: Seq[String],
      pause: Boolean = false,
      env: Map[String, String] = Map.empty,
      timeoutSeconds: Long = 300,
      mainClass: String = WorkloadApp,
      size: String = "tiny",
      sparkHome: String = Sessions.submitSparkHome,
      appResource: Option[File] = None): Report = {
    val done = launch(
      name,
      master,
      deployMode,
      conf,
      workloads,
      pause,
      env,
      timeoutSeconds,
      mainClass,
      sparkHome,
      size,
      appResource)
    reportOf(name, done)
  }

  /** The report of an application that ended; fails with its log's tail where it failed. */
  def reportOf(name: String, done: Ended): Report = {
    assert(done.code == 0, s"$name exited with ${done.code}:\n${tail(done.log)}")
    assert(Files.exists(done.report), s"$name wrote no report:\n${tail(done.log)}")
    Report(Files.readAllLines(done.report).asScala.toSeq, done.log)
  }

  /** Writes `conf` as the properties file spark-submit reads (`--properties-file`). */
  def writeProperties(file: Path, conf: Map[String, String], comment: String): Unit = {
    val props = new Properties()
    conf.foreach { case (k, v) => props.setProperty(k, v) }
    val w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)
    try props.store(w, comment)
    finally w.close()
  }

  /** Waits for `process` to end, killing it and its children after `timeoutSeconds`. */
  def awaitEnd(process: Process, name: String, log: Path, timeoutSeconds: Long): Int = {
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.descendants().forEach(p => p.destroyForcibly())
      process.destroyForcibly()
      throw new AssertionError(s"$name did not finish in $timeoutSeconds s:\n${tail(log)}")
    }
    process.exitValue()
  }

  /** How a submitted application ended: its exit code, its report file and its log. */
  case class Ended(code: Int, report: Path, log: Path)

  /**
   * Runs the application to its end with `spark-submit` of `sparkHome`; fails when it takes
   * longer than `timeoutSeconds`. The application's classes are this build's, or
   * `appResource` (another line's build of them).
   */
  def launch(
      name: String,
      master: String,
      deployMode: String,
      conf: Map[String, String],
      workloads: Seq[String],
      pause: Boolean = false,
      env: Map[String, String] = Map.empty,
      timeoutSeconds: Long = 300,
      mainClass: String = WorkloadApp,
      sparkHome: String = Sessions.submitSparkHome,
      size: String = "tiny",
      appResource: Option[File] = None): Ended = {
    val dir = Files.createTempDirectory(
      new File(System.getProperty("java.io.tmpdir")).toPath,
      s"submit-$name")
    val report = dir.resolve("report.txt")
    val log = dir.resolve("spark-submit.log")
    val propsFile = dir.resolve("spark.properties")
    writeProperties(propsFile, conf, s"KAE Shuffle deployment test $name")

    val launcher = new SparkLauncher(env.asJava)
      .setSparkHome(sparkHome)
      .setPropertiesFile(propsFile.toString)
      .setAppResource(appResource.getOrElse(appJar).getAbsolutePath)
      .setMainClass(mainClass)
      .setMaster(master)
      .setDeployMode(deployMode)
      .setAppName(s"kae-$name")
      .addAppArgs((Seq(report.toString, size, workloads.mkString(",")) ++
        (if (pause) Seq("pause") else Nil)): _*)
      .redirectOutput(log.toFile)
      .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile))
    Ended(awaitEnd(launcher.launch(), name, log, timeoutSeconds), report, log)
  }

  def tail(log: Path, lines: Int = 60): String =
    if (!Files.exists(log)) "(no log)"
    else Files.readAllLines(log, StandardCharsets.ISO_8859_1).asScala.takeRight(lines)
      .mkString("\n")
}
