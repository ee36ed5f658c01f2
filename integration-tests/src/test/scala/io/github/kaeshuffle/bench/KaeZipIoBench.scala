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
package io.github.kaeshuffle.bench

import java.awt.Color
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.{KaeZipModel => Model}
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.{TextCorpus, WorkloadJobs, Workloads}
import org.knowm.xchart.CategoryChartBuilder

import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession
import org.apache.spark.storage.StorageLevel

/**
 * Spark's IO outside the shuffle (a broadcast, serialized cached blocks, a reliable checkpoint)
 * through the published study's design and through [[org.apache.spark.shuffle.kae.KaeIoCodec]],
 * on the KAEzip cost model (simulated, not hardware): what the serializer hands the codec, the
 * codec calls and hardware requests per MiB, and the bytes written, next to Spark's lz4 and our
 * blocks in software zlib. Bytes and counts do not depend on time, so the model charges no
 * latency and each configuration runs once; every use's result is checked across all of them.
 * Everything runs in one local[2] JVM, so the counters read before and after each use are its own.
 *
 * Arguments: output dir, size (the cached and checkpointed records are lda-edges' of that size).
 * Run: `mvn -B -pl integration-tests -am -Pbench-kaezip-io verify`.
 */
object KaeZipIoBench {

  /** A codec configuration: the codec Spark's IO uses, and its settings. */
  case class Config(name: String, codec: String, model: Boolean, settings: Map[String, String])

  private val KaeIo = Harness.IoCodecClass

  val Configs: Seq[Config] = Seq(
    Config("spark-lz4", "org.apache.spark.io.LZ4CompressionCodec", model = false, Map()),
    Config("study-kaezip-stream", classOf[KaeZipStreamCodec].getName, model = true, Map()),
    Config(
      "kaeio-kaezip",
      KaeIo,
      model = true,
      Map(
        "spark.shuffle.kae.codec" -> "kaezip",
        "spark.shuffle.kae.kaezip.libraryPath" -> Model.path(),
        "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true")
    ),
    Config("kaeio-zlib", KaeIo, model = false, Map("spark.shuffle.kae.codec" -> "zlib"))
  )

  val Serializers: Seq[(String, String)] = Seq("java" -> Sessions.Java, "kryo" -> Sessions.Kryo)

  val Uses: Seq[String] = Seq("broadcast", "cache", "checkpoint")

  /** What one use wrote through one configuration. */
  case class Row(
      use: String,
      serializer: String,
      config: Config,
      io: CountingCodec.Counts,
      ioCodecCalls: Long,
      model: Map[String, Long],
      result: Long) {
    def m(name: String): Long = model.getOrElse(name, 0L)
    def rawMib: Double = io.raw / 1048576.0
    def perMib(n: Long): Double = n / rawMib

    /** Our codec calls, or the model's deflate calls for the study's stream (each one write). */
    def codecCalls: Long = if (config.codec == KaeIo) ioCodecCalls else m("compress.calls")
  }

  def main(args: Array[String]): Unit = {
    val out = Paths.get(args.lift(0).getOrElse("docs/benchmarks/kaezip-model"))
    val size = Workloads.Size.of(args.lift(1).getOrElse("xsmall"))
    Files.createDirectories(out)
    Model.configure(0, 0, 2, 0)
    val rows =
      (for ((ser, serClass) <- Serializers; c <- Configs) yield run(c, ser, serClass, size)).flatten
    for ((use, same) <- rows.groupBy(_.use) if same.map(_.result).distinct.size != 1) {
      throw new IllegalStateException(s"RESULT MISMATCH in $use: ${same.map(_.result)}")
    }
    rows.foreach(r =>
      println(f"${r.use}%-10s ${r.serializer}%-4s ${r.config.name}%-20s " +
        f"raw ${r.rawMib}%8.2f MiB written ${r.io.written / 1048576.0}%8.2f MiB " +
        f"writes ${r.io.writes}%9d calls ${r.codecCalls}%9d requests ${r.m("compress.requests")}"))
    val page = KaeZipIoPage(rows, size)
    page.drawChart(out)
    Files.writeString(out.resolve("io.md"), page.render(PageNotes.of(out.resolve("io.md"))))
    println(Files.readString(out.resolve("io.md")))
  }

  private def run(c: Config, ser: String, serClass: String, size: Workloads.Size): Seq[Row] = {
    val conf = Sessions.conf(None, serClass, "local[2]")
      .set("spark.io.compression.codec", classOf[CountingCodec].getName)
      .set(CountingCodec.Inner, c.codec)
      .set("spark.rdd.compress", "true")
      .set("spark.checkpoint.compress", "true")
      .setAll(c.settings)
    Sessions.withSession(conf) { spark =>
      spark.sparkContext.setCheckpointDir(
        Files.createTempDirectory(Paths.get(sys.props("java.io.tmpdir")), "kae-io-bench").toString)
      Uses.map { use =>
        val (io, calls, model) =
          (CountingCodec.counts(), KaeSparkAccess.ioCodecCalls, KaeZipModelBench.counters())
        val result = job(use, spark, size)
        val after = KaeZipModelBench.counters()
        Row(
          use,
          ser,
          c,
          CountingCodec.counts() - io,
          KaeSparkAccess.ioCodecCalls - calls,
          after.map { case (k, v) => k -> (v - model(k)) },
          result)
      }
    }
  }

  /** Runs one use; its result, the same whatever the codec. */
  private def job(use: String, spark: SparkSession, size: Workloads.Size): Long = {
    val sc = spark.sparkContext
    def records() = WorkloadJobs.ldaEdgeRecords(spark, size, 4, 42L)
    use match {
      case "broadcast" =>
        // A dictionary of text lines, as a job's lookup table: one large value, written once.
        val r = TextCorpus.random(42L, 0)
        val lines = Array.fill(size.linesPerSlice * 4)(TextCorpus.get().line(r, 10))
        val table = sc.broadcast(lines)
        val hash = sc.parallelize(0 until 4, 4)
          .map(i => table.value.iterator.drop(i).take(1000).map(_.hashCode.toLong).sum).sum()
        table.destroy()
        hash.toLong
      case "cache" =>
        // Serialized blocks kept in memory (compressed with spark.rdd.compress), read twice.
        val cached = records().persist(StorageLevel.MEMORY_AND_DISK_SER)
        val n = cached.count()
        val hash = cached.map(_.hashCode.toLong).reduce(_ + _)
        cached.unpersist(blocking = true)
        n * 31 + hash
      case "checkpoint" =>
        // Written to the checkpoint dir (spark.checkpoint.compress), then read back from it.
        val rdd = records()
        rdd.checkpoint()
        val n = rdd.count()
        n * 31 + rdd.map(_.hashCode.toLong).reduce(_ + _)
    }
  }
}

/** The IO page: its table and chart. */
private case class KaeZipIoPage(rows: Seq[KaeZipIoBench.Row], size: Workloads.Size) {
  import KaeZipIoBench._

  def render(notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= "# Spark's IO outside the shuffle on the engine: the study's stream against whole blocks\n\n"
    sb ++= "**Every request count on this page is from the simulated KAEzip cost model, not " +
      "hardware** (`native-codec/src/test/native/kaezip_model.c`, with the hardware's bytes: each " +
      "request compressed on its own; [docs/native-codec.md](../../native-codec.md#the-kaezip-cost" +
      "-model-tests-and-benchmarks-only)). Produced by `mvn -B -pl integration-tests -am " +
      "-Pbench-kaezip-io verify` (class `io.github.kaeshuffle.bench.KaeZipIoBench`): size " +
      s"`${size.name.toLowerCase}`, `local[2]`, Spark's own shuffle, `spark.rdd.compress` and " +
      "`spark.checkpoint.compress` on. Uses: *broadcast*, a table of " +
      s"${size.linesPerSlice * 4} text lines broadcast once; *cache*, lda-edges' records " +
      "cached `MEMORY_AND_DISK_SER` and read twice; *checkpoint*, the same records written to " +
      "a reliable checkpoint and read back. Each use's counts include Spark's own small " +
      "broadcasts of its tasks.\n\n"
    sb ++= MachineInfo.describe()
    sb ++= s"- Commit: ${Harness.commit}\n\n"
    notes.foreach(n => sb ++= PageNotes.block(n))
    sb ++= "*raw* what the serializer wrote into the codec's streams, *writes* its write calls " +
      "(each one deflate call in the study's stream), *written* the codec's output, *calls/MiB* " +
      "codec calls per raw MiB (ours: one per block of 256 KiB, the last of each stream " +
      "shorter), *requests/MiB* compress requests the engine got, *B/req* raw bytes per " +
      "request, *read requests* decompress requests. Same results under every configuration.\n\n"
    sb ++= "| use | serializer | configuration | raw MiB | writes | B/write | written MiB | x raw | " +
      "calls/MiB | requests/MiB | B/req | read requests |\n" +
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    for (r <- rows.sortBy(r => (Uses.indexOf(r.use), r.serializer))) {
      val req = r.m("compress.requests")
      def model(s: String) = if (r.config.model) s else "-"
      sb ++= f"| ${r.use} | ${r.serializer} | ${r.config.name} | ${r.rawMib}%.2f | " +
        f"${r.io.writes} | ${r.io.raw.toDouble / math.max(1L, r.io.writes)}%.1f | " +
        f"${r.io.written / 1048576.0}%.2f | ${r.io.written.toDouble / r.io.raw}%.3f | " +
        (if (r.config.name == "spark-lz4") "- | " else f"${r.perMib(r.codecCalls)}%.1f | ") +
        model(f"${r.perMib(req)}%.1f") + " | " +
        model(f"${r.io.raw.toDouble / math.max(1L, req)}%.0f") + " | " +
        model(r.m("decompress.requests").toString) + " |\n"
    }
    sb ++= "\n![io.png](io.png)\n"
    sb.toString
  }

  /** One colour per configuration in both charts. */
  private val Colors = Map(
    "spark-lz4" -> new Color(0x4c72b0),
    "study-kaezip-stream" -> new Color(0xdd8452),
    "kaeio-kaezip" -> new Color(0x8172b3),
    "kaeio-zlib" -> new Color(0x55a868))

  def drawChart(dir: Path): Unit = {
    val label = " (simulated KAEzip cost model, not hardware)"
    val cats = for (u <- Uses; (s, _) <- Serializers) yield s"$u/$s"
    def row(c: Config, cat: String) =
      rows.find(r => r.config == c && s"${r.use}/${r.serializer}" == cat).get
    val bytes = new CategoryChartBuilder().width(1000).height(480)
      .title("Bytes written / raw bytes" + label).xAxisTitle("use / serializer")
      .yAxisTitle("written / raw").build()
    for (c <- Configs) {
      bytes.addSeries(
        c.name,
        cats.asJava,
        cats.map(k => Double.box(row(c, k).io.written.toDouble / row(c, k).io.raw)).asJava)
        .setFillColor(Colors(c.name))
    }
    val requests = new CategoryChartBuilder().width(1000).height(480)
      .title("Compress requests per raw MiB, log10" + label).xAxisTitle("use / serializer")
      .yAxisTitle("log10(requests per MiB)").build()
    for (c <- Configs if c.model) {
      requests.addSeries(
        c.name,
        cats.asJava,
        cats.map { k =>
          Double.box(math.log10(math.max(1.0, row(c, k).perMib(row(c, k).m("compress.requests")))))
        }.asJava).setFillColor(Colors(c.name))
    }
    ChartGrid.save(dir, "io.png", 1, Seq(bytes, requests))
  }
}
