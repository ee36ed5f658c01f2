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
package io.github.kaeshuffle.quickstart

import java.io.File
import java.nio.file.Files
import java.util.Locale

import io.github.kaeshuffle.bench.{CountingDeflateCodec, ShuffleTotals}
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}

import org.apache.spark.SparkConf
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * README's first command: runs real Spark jobs on an embedded local Spark, each with Spark's
 * built-in shuffle (deflate stream codec, counted; and Spark's default lz4) and with KAE Shuffle,
 * then prints what each shuffle did side by side and checks the results are equal.
 *
 * Arguments: [size: tiny|small|medium] [workloads, comma-separated] [master]
 */
object QuickStart {
  private case class Run(
      config: String,
      seconds: Double,
      written: Long,
      raw: Long,
      calls: Long,
      digest: WorkloadJobs.Digest)

  def main(args: Array[String]): Unit = {
    val size = Workloads.Size.of(args.headOption.getOrElse("small"))
    val workloads = args.lift(1).getOrElse("lda-edges,sort").split(',').toSeq
    val master = args.lift(2).getOrElse("local[2]")
    println(s"KAE Shuffle quick start: workloads ${workloads.mkString(", ")} at size " +
      s"${size.name.toLowerCase(Locale.ROOT)}, $master, Spark ${org.apache.spark.SPARK_VERSION} " +
      s"(Scala ${scala.util.Properties.versionNumberString})")
    val allEqual = workloads.map(w => compare(w, size, master)).forall(identity)
    if (!allEqual) {
      System.err.println("KAE Shuffle gave a different result than Spark's shuffle.")
      sys.exit(1)
    }
  }

  /** One workload under Spark's zlib stream, Spark's lz4 and ours; true if results are equal. */
  private def compare(w: String, size: Workloads.Size, master: String): Boolean = {
    val slices = 4
    val runs = Seq(
      run(
        w,
        size,
        slices,
        master,
        "Spark shuffle, zlib stream codec",
        base(master).set("spark.io.compression.codec", classOf[CountingDeflateCodec].getName)),
      run(w, size, slices, master, "Spark shuffle, lz4 (Spark's default)", base(master)),
      run(
        w,
        size,
        slices,
        master,
        "KAE Shuffle, codec auto",
        base(master).set("spark.shuffle.manager", "org.apache.spark.shuffle.kae.KaeShuffleManager"))
    )
    println()
    println(s"== $w ==")
    printTable(runs)
    val same = runs.forall(_.digest.sameAs(runs.head.digest))
    println(s"results: ${if (same) "identical" else "DIFFERENT"} (${runs.head.digest})")
    same
  }

  private def printTable(runs: Seq[Run]): Unit = {
    println(f"${"shuffle"}%-38s ${"time s"}%8s ${"written MiB"}%12s ${"raw MiB"}%9s " +
      f"${"codec calls"}%12s ${"bytes/call"}%11s ${"calls/MiB"}%10s")
    for (r <- runs) {
      def opt(v: Long, f: Long => String) = if (v > 0) f(v) else "-"
      println(f"${r.config}%-38s ${r.seconds}%8.2f ${mib(r.written)}%12s " +
        f"${opt(r.raw, mib)}%9s ${opt(r.calls, _.toString)}%12s " +
        f"${opt(r.calls, c => f"${r.raw.toDouble / c}%.0f")}%11s " +
        f"${opt(r.calls, c => f"${c / (r.raw / 1048576.0)}%.1f")}%10s")
    }
  }

  private def base(master: String): SparkConf = {
    val tmp = new File(System.getProperty("java.io.tmpdir"))
    tmp.mkdirs()
    new SparkConf(false)
      .setMaster(master)
      .setAppName("kae-quickstart")
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
      .set("spark.local.dir", Files.createTempDirectory(tmp.toPath, "quickstart").toString)
      .set("spark.sql.shuffle.partitions", "8")
  }

  private def run(
      workload: String,
      size: Workloads.Size,
      slices: Int,
      master: String,
      config: String,
      conf: SparkConf): Run = {
    val spark = SparkSession.builder().config(conf).getOrCreate()
    try {
      val totals = new ShuffleTotals
      spark.sparkContext.addSparkListener(totals)
      CountingDeflateCodec.reset()
      val start = System.nanoTime()
      val digest = WorkloadJobs.run(workload, spark, size, slices)
      val seconds = (System.nanoTime() - start) / 1e9
      KaeSparkAccess.drainListeners(spark.sparkContext)
      val kaeCalls = totals.kaeTotal("write.codecCalls")
      val (raw, calls) = if (kaeCalls > 0) (totals.kaeTotal("write.rawBytes"), kaeCalls)
      else (CountingDeflateCodec.bytes.get, CountingDeflateCodec.calls.get)
      Run(config, seconds, totals.bytesWritten.get, raw, calls, digest)
    } finally {
      spark.stop()
    }
  }

  private def mib(b: Long): String = "%.1f".formatLocal(Locale.ROOT, b / 1048576.0)
}
