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

import java.nio.file.{Files, Path}
import java.util.Locale

import io.github.kaeshuffle.bench.Harness.{median, medianWall, Run}

/**
 * How cost grows with data: the harness's `small` and `medium` results side by side
 * (Harness-growth.md). Medium has 10 times the records of small (docs/workloads.md).
 */
object Growth {
  def write(dir: Path): Unit = {
    val small = Harness.readCsv(dir.resolve("Harness-small.csv"))
    val medium = Harness.readCsv(dir.resolve("Harness-medium.csv"))
    Files.writeString(dir.resolve("Harness-growth.md"), page(small, medium))
  }

  private def f(v: Double, digits: Int): String =
    if (v.isNaN || v.isInfinite) "-" else s"%.${digits}f".formatLocal(Locale.ROOT, v)

  def page(small: Seq[Run], medium: Seq[Run]): String = {
    val sb = new StringBuilder
    sb ++= "# How cost grows with data: `small` vs `medium`\n\n"
    sb ++= "Written by the benchmark harness (`mvn -B -pl integration-tests -am -Pbench verify " +
      "-Dbench.command=growth`, and after every harness run when both CSVs are here) from " +
      "[Harness-small.csv](Harness-small.csv) and [Harness-medium.csv](Harness-medium.csv). " +
      "`medium` has 10 times the records of `small` ([workloads](../workloads.md)). Each " +
      "size's runs are compared within their own run only: the two were taken at different " +
      "times, so their absolute times carry the machine's drift, their ratios do not.\n\n"
    sb ++= "Columns: median job time at each size; *time x*: medium / small (10 would be " +
      "linear); *written x*: shuffle bytes written, medium / small; *vs baseline*: the " +
      "configuration's time / its baseline's (Spark with the same codec family) at each size, " +
      "as on the results pages.\n\n"
    val workloads = medium.map(_.workload).distinct.filter(w => small.exists(_.workload == w))
    val configs = (Harness.AllConfigs ++ Harness.ExtraConfigs)
      .filter(c => medium.exists(_.config == c.name) && small.exists(_.config == c.name))
    for (w <- workloads) {
      sb ++= s"## $w\n\n| config | small s | medium s | time x | written x | vs baseline, " +
        "small | vs baseline, medium |\n|---|---:|---:|---:|---:|---:|---:|\n"
      for (c <- configs) {
        def time(runs: Seq[Run]) = medianWall(runs, w, c.name)
        def written(runs: Seq[Run]) =
          median(runs.filter(r => r.workload == w && r.config == c.name).map(_.written.toDouble))
        def vs(runs: Seq[Run]) =
          if (c.kae) f(time(runs) / medianWall(runs, w, c.baseline), 2) else "-"
        val (ts, tm) = (time(small), time(medium))
        if (!ts.isNaN && !tm.isNaN) {
          sb ++= s"| ${c.name} | ${f(ts, 2)} | ${f(tm, 2)} | ${f(tm / ts, 1)} | " +
            s"${f(written(medium) / written(small), 1)} | ${vs(small)} | ${vs(medium)} |\n"
        }
      }
      sb ++= "\n"
    }
    sb.toString
  }
}
