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
package org.apache.spark.shuffle.kae

import java.nio.file.{Files, Path}
import java.util.Locale

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.{Harness, MachineInfo}
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}

import org.apache.spark.shuffle.kae.doctor.DoctorChart

/**
 * The shuffle doctor's worked examples (docs/tuning.md): each workload once per KAE
 * configuration, local[2], with an event log; the event log replayed by [[KaeShuffleDoctor]]
 * (the command users run) into `Doctor-<size>.md` and one PNG per run. Run through the harness:
 * `-Pbench -Dbench.command=doctor`.
 */
object DoctorRuns {
  def write(
      outDir: Path,
      size: Workloads.Size,
      workloads: Seq[String],
      configs: Seq[Harness.Config]): Unit = {
    val sizeName = size.name.toLowerCase(Locale.ROOT)
    val sb = new StringBuilder
    sb ++= s"# The shuffle doctor on the benchmark workloads, size `$sizeName`\n\n"
    sb ++= "Produced by `mvn -B -pl integration-tests -am -Pbench verify " +
      s"-Dbench.command=doctor -Dbench.size=$sizeName` (class " +
      "`org.apache.spark.shuffle.kae.DoctorRuns`): each workload once per configuration in " +
      "local[2] with Kryo and an event log, then the event log replayed by the doctor's " +
      "command (`KaeShuffleDoctor`). How to read it: [tuning](../tuning.md).\n\n"
    sb ++= MachineInfo.describe()
    sb ++= "\n"
    for (w <- workloads; c <- configs.filter(_.kae)) {
      val logDir = Files.createTempDirectory(
        Path.of(System.getProperty("java.io.tmpdir")),
        "doctor-eventlog")
      val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
        .setAppName(s"$w $sizeName ${c.name}")
        .set("spark.unsafe.exceptionOnMemoryLeak", "false")
        .set("spark.eventLog.enabled", "true")
        .set("spark.eventLog.dir", logDir.toUri.toString)
        .setAll(c.settings)
      Sessions.withSession(conf) { spark =>
        WorkloadJobs.run(w, spark, size, 4)
      }
      val log = Files.list(logDir).iterator().asScala.toSeq.head
      val report = KaeShuffleDoctor.analyze(log.toString, measureRates = true)
      val png = s"Doctor-$sizeName-$w-${c.name}.png"
      DoctorChart.write(report, outDir.resolve(png).toFile)
      sb ++= s"## $w, ${c.name}\n\n"
      report.lines.foreach(l => sb ++= s"- ${l.stripPrefix("KAE Shuffle doctor: ")}\n")
      sb ++= s"\n![$png]($png)\n\n"
      println(report.lines.mkString("\n"))
    }
    Files.writeString(outDir.resolve(s"Doctor-$sizeName.md"), sb.toString)
  }
}
