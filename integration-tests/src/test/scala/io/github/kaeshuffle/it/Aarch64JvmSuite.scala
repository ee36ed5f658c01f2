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
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.util.concurrent.TimeUnit

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.TestCodecs
import io.github.kaeshuffle.testing.{MatrixTests, TestScope}

/**
 * The deployable jar on an AArch64 JVM (Debian's OpenJDK 17 for arm64 under qemu-user,
 * src/test/scripts/aarch64-java.sh), submitted with Spark's own `spark-submit` in `local[2]`: the
 * jar's AArch64 library loads from the jar and every codec gives Spark's results, `kaezip`
 * through the AArch64 build of the KAEzip cost model (a model, not hardware). Emulation is slow
 * (a tiny job takes a minute or more): the gate and every line's matrix run `auto`; the rest, which
 * does not depend on the line, runs in the matrix on the default line. Where the host
 * is AArch64, or the build makes no library for another architecture, there is nothing to run.
 */
class Aarch64JvmSuite extends MatrixTests {

  /** The gate's one RDD workload; the full set adds SQL (whose code generation costs minutes). */
  private val Workloads =
    if (TestScope.full && TestScope.defaultLine) Seq("sort", "groupby-skew-sql") else Seq("sort")
  private lazy val javaHome = Sessions.aarch64JavaHome.get
  private lazy val expected = Sessions.expected(Workloads)
  private lazy val modelLibrary = TestCodecs.testLib("libkaezipmodel-aarch64.so")

  private def base(codec: String): Map[String, String] = Map(
    "spark.shuffle.manager" -> Submit.Manager,
    "spark.shuffle.kae.codec" -> codec,
    "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
    "spark.driver.memory" -> "1g",
    "spark.ui.enabled" -> "false",
    "spark.sql.shuffle.partitions" -> "8",
    // Under emulation compiling is dear: C1 alone starts Spark sooner than C1 and C2.
    "spark.driver.extraJavaOptions" -> "-XX:TieredStopAtLevel=1"
  ) ++ Submit.withJars()

  private def kaezip: Map[String, String] = base("kaezip") ++ Map(
    "spark.shuffle.kae.kaezip.libraryPath" -> modelLibrary,
    "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true")

  /** Submits to the AArch64 JVM; checks it ran there and gave Spark's results. */
  private def onAarch64(
      name: String,
      conf: Map[String, String],
      env: Map[String, String] = Map.empty): (Submit.Report, String) = {
    val report = Submit.run(
      name,
      "local[2]",
      "client",
      conf,
      Workloads,
      env = env + ("JAVA_HOME" -> javaHome),
      timeoutSeconds = 900)
    val log = new String(Files.readAllBytes(report.log), StandardCharsets.ISO_8859_1)
    assert(
      report.architectures == Seq("aarch64"),
      s"ran on ${report.architectures} (${report.log})")
    report.assertSame(expected)
    (report, log)
  }

  /** The codec the JVM chose, from its log line, and the native library it loaded. */
  private def assertCodec(report: Submit.Report, log: String, codec: String): Unit = {
    assert(report.manager == Submit.Manager, s"log: ${report.log}")
    assert(log.contains("KAE Shuffle native library loaded"), s"no native library: ${report.log}")
    assert(log.contains("linux/aarch64/libkaeshuffle-"), s"not the AArch64 library: ${report.log}")
    val choice = log.linesIterator.find(_.contains("KAE Shuffle codec: ")).getOrElse("")
    assert(choice.contains(codec), s"codec line: '$choice' (${report.log})")
    assert(report.long("kae.write.codecCalls") > 0, s"no block compressed: ${report.lines}")
    assert(report.long("kae.read.codecCalls") > 0, s"no block decompressed: ${report.lines}")
  }

  private def gate(inGate: Boolean)(name: String)(body: => Any): Unit =
    if (Sessions.aarch64JavaHome.isDefined && Submit.carriesLibrary("aarch64"))
      if (inGate) test(name)(body) else defaultLineTest(name)(body)
    else
      ignore(s"$name [no AArch64 JVM or no AArch64 library in the jar: an AArch64 host, or a " +
        "build without the cross tools (kae.native.cross=auto; the build's NOTE says which)]")(body)

  gate(inGate = true)("on an AArch64 JVM the jar loads its AArch64 library; auto gives Spark's " +
    "results") {
    val (report, log) = onAarch64("aarch64-auto", base("auto"))
    assertCodec(report, log, "lz4")
  }

  for (codec <- Seq("zstd", "lz4", "zlib", "libdeflate")) {
    gate(inGate = false)(s"on an AArch64 JVM codec $codec gives Spark's results") {
      val (report, log) = onAarch64(s"aarch64-$codec", base(codec))
      assertCodec(report, log, codec)
    }
  }

  gate(inGate = false)("on an AArch64 JVM kaezip reaches the AArch64 KAEzip model through JNI") {
    val stats = Files.createTempDirectory("kaezip-model-stats")
    val (report, log) =
      onAarch64("aarch64-kaezip", kaezip, Map("KAEZIP_MODEL_STATS_DIR" -> stats.toString))
    assertCodec(report, log, "kaezip")
    assert(modelCounter(stats.toFile, "compress.requests") > 0, "no request reached the model")
    assert(modelCounter(stats.toFile, "decompress.requests") > 0, "no request reached the model")
  }

  gate(inGate = false)("on an AArch64 JVM a KAEzip fault falls back to software, no task failed") {
    val (report, log) =
      onAarch64("aarch64-kaezip-fault", kaezip, Map("KAEZIP_MODEL_FAIL_EVERY" -> "3"))
    assertCodec(report, log, "kaezip")
    assert(report.long("kae.write.softwareBlocks") > 0, s"no block fell back: ${report.lines}")
  }

  gate(inGate = false)("on an AArch64 JVM Spark's own shuffle gives the same results") {
    onAarch64("aarch64-spark", base("auto") - "spark.shuffle.manager")
  }

  gate(inGate = false)(
    "the KAEzip preflight on an AArch64 JVM: no engine here; through the model the library " +
      "works, no hardware confirmed") {
    val (noEngine, code) = preflight()
    assert(code == 1, s"exit $code:\n$noEngine")
    assert(noEngine.contains("KAEzip verdict: not in use"), noEngine)
    assert(noEngine.contains("not a HiSilicon CPU"), noEngine)
    val (model, modelCode) = preflight("--library", modelLibrary, "--skip-hardware-check")
    // A round trip through the AArch64 library into the model, which takes no hardware queue.
    assert(modelCode == 1, s"exit $modelCode:\n$model")
    assert(model.contains("software zlib reads them"), model)
    assert(model.contains("not confirmed: the library works"), model)
  }

  /** KaeZipPreflight's command on the AArch64 JVM, with slf4j from Spark's jars: output, exit. */
  private def preflight(args: String*): (String, Int) = {
    val slf4j = new File(Sessions.sparkHome, "jars").listFiles()
      .filter(_.getName.startsWith("slf4j-api-")).head
    val cmd = Seq(
      s"$javaHome/bin/java",
      "-cp",
      s"${Submit.distJar}:$slf4j",
      "io.github.kaeshuffle.codec.kaezip.KaeZipPreflight") ++ args
    val out = Files.createTempFile("preflight", ".txt").toFile
    val p = new ProcessBuilder(cmd.asJava).redirectErrorStream(true).redirectOutput(out).start()
    assert(p.waitFor(300, TimeUnit.SECONDS), s"the preflight did not end: ${cmd.mkString(" ")}")
    (new String(Files.readAllBytes(out.toPath), StandardCharsets.UTF_8), p.exitValue())
  }

  /** A counter of the model's stats files (one per process) summed. */
  private def modelCounter(dir: File, name: String): Long =
    dir.listFiles().filter(_.getName.endsWith(".txt")).flatMap { f =>
      Files.readAllLines(f.toPath).asScala.map(_.split(" ")).collect {
        case Array(`name`, v) => v.toLong
      }
    }.sum
}
