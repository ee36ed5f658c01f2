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
import java.lang.management.ManagementFactory
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration

/**
 * What YARN's daemons run in their own JVMs need ([[NodeManagerProcess]],
 * [[ResourceManagerProcess]]): Hadoop's own unshaded jars (the class path the
 * `integration-tests/nodemanager` module resolves), a configuration directory, a command.
 */
object YarnDaemon {

  /** Scheduler settings of a test cluster: one queue, application masters may take all of it. */
  val SchedulerSettings: Map[String, String] = Map(
    "yarn.scheduler.minimum-allocation-mb" -> "256",
    "yarn.scheduler.capacity.root.queues" -> "default",
    "yarn.scheduler.capacity.root.default.capacity" -> "100",
    "yarn.scheduler.capacity.root.default.maximum-capacity" -> "100",
    "yarn.scheduler.capacity.maximum-am-resource-percent" -> "1.0"
  )

  /** A NodeManager's resources, and no memory or disk checks that a shared test machine fails. */
  val NodeSettings: Map[String, String] = Map(
    "yarn.nodemanager.resource.memory-mb" -> "8192",
    "yarn.nodemanager.resource.cpu-vcores" -> "8",
    "yarn.nodemanager.pmem-check-enabled" -> "false",
    "yarn.nodemanager.vmem-check-enabled" -> "false",
    "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage" -> "99.9",
    "yarn.nodemanager.delete.debug-delay-sec" -> "600"
  )

  /**
   * The Java and the Hadoop jars a daemon runs on.
   *
   * @param javaHome the Java runtime's home
   * @param classpathFile a file holding Hadoop's class path, one line
   */
  final case class Runtime(javaHome: String, classpathFile: File) {
    def classpath: String = {
      require(
        classpathFile.isFile,
        s"$classpathFile is missing: build with mvn verify from the root")
      new String(Files.readAllBytes(classpathFile.toPath), StandardCharsets.UTF_8).trim
    }
  }

  /**
   * The aux-service class path of one of our service jars under its own name and port, as
   * docs/yarn.md installs another Spark line's: a directory holding the spark-shuffle-site.xml
   * that names it, then the jar.
   */
  def namedServiceClasspath(name: String, port: Int, jar: File): String = {
    val dir = ClusterFaults.tmpDir(s"kae-service-$name")
    Files.writeString(
      dir.resolve("spark-shuffle-site.xml"),
      s"""<configuration>
         |<property><name>spark.shuffle.service.name</name><value>$name</value></property>
         |<property><name>spark.shuffle.service.port</name><value>$port</value></property>
         |</configuration>
         |""".stripMargin
    )
    s"$dir${File.pathSeparator}${jar.getAbsolutePath}"
  }

  /** This JVM's Java, and the build's Hadoop (integration-tests/nodemanager). */
  def buildRuntime: Runtime = Runtime(
    System.getProperty("java.home"),
    new File(sys.props.getOrElse("kae.test.nodeManagerClasspath", "missing")))

  /** Writes `conf` as `yarn-site.xml` into `confDir`, with a log4j configuration to stderr. */
  def writeConf(confDir: Path, conf: Configuration): Unit = {
    Files.createDirectories(confDir)
    val out = new FileOutputStream(confDir.resolve("yarn-site.xml").toFile)
    try conf.writeXml(out)
    finally out.close()
    Files.write(
      confDir.resolve("log4j.properties"),
      Seq(
        "log4j.rootLogger=INFO,console",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.target=System.err",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss.SSS} %p %c{1}: %m%n"
      ).asJava,
      StandardCharsets.UTF_8
    )
  }

  /**
   * The process that runs `mainClass` on `host` with the configuration in `confDir`, this JVM's
   * environment and `env`, on `runtime`; `wrap` gives the command line its launcher (a
   * node shape's memory cgroup).
   */
  def start(
      host: TestHost,
      confDir: Path,
      logDir: Path,
      log: Path,
      mainClass: String,
      env: Map[String, String] = Map.empty,
      runtime: Runtime = buildRuntime,
      wrap: Seq[String] => Seq[String] = identity): Process = {
    // The module flags this JVM runs with (Spark's), which Hadoop on Java 17 needs as well.
    val moduleFlags = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala
      .filter(a => a.startsWith("--add-opens") || a.startsWith("--add-exports"))
    val java = Seq(
      s"${runtime.javaHome}/bin/java",
      "-Xmx512m",
      s"-Dhadoop.log.dir=$logDir",
      s"-Dyarn.log.dir=$logDir",
      "-Djava.net.preferIPv4Stack=true") ++
      moduleFlags ++ Seq("-cp", s"$confDir${File.pathSeparator}${runtime.classpath}", mainClass)
    // Outside the host's command: `ip netns exec` mounts a /sys without the cgroup trees.
    val pb = new ProcessBuilder(wrap(host.command(java)).asJava)
    pb.environment().put("JAVA_HOME", runtime.javaHome)
    env.foreach { case (k, v) => pb.environment().put(k, v) }
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile))
    pb.start()
  }
}
