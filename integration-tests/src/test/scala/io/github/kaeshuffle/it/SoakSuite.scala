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

import java.nio.file.Paths

import io.github.kaeshuffle.bench.SoakPage
import io.github.kaeshuffle.testing.MatrixTests

/**
 * An application that runs for long, under KAE Shuffle and under Spark's: an iterative job with a
 * new shuffle per iteration while a streaming aggregation shuffles in every micro-batch
 * ([[Soak]]). Whatever KAE Shuffle keeps per shuffle (map ids, codec policies, accumulators, UI
 * rows, files) must go when Spark unregisters the shuffle, so after warm-up nothing grows faster
 * than [[Soak.growth]]'s bounds per 1,000 shuffles, nor faster than under Spark's shuffle. The
 * gate runs a short soak in local mode; the matrix a long one in local-cluster, whose samples
 * make docs/benchmarks/soak/ when `kae.soak.out` names a directory.
 */
class SoakSuite extends MatrixTests {

  /**
   * Per measure: the growth per 1,000 shuffles after warm-up above which it is growing, and the
   * rise over the samples kept that is noise (threads started late, files of shuffles the cleaner
   * has not reached yet), which weighs most in a short soak.
   */
  private val Bounds = Map(
    "driver.heapMiB" -> (16.0, 8.0),
    // One of Spark's execution pages (up to 64 MiB) held at one sample is noise (JvmSample).
    "driver.longArraysMiB" -> (16.0, 64.0),
    // In local mode the driver is the executor: the files and sockets of the tasks running at a
    // sample come and go by about 20 from one sample to the next.
    "driver.fds" -> (10.0, 32.0),
    "driver.threads" -> (5.0, 4.0),
    "driver.encoders" -> (2.0, 2.0),
    "driver.decoders" -> (2.0, 2.0),
    "executors.heapMiB" -> (16.0, 8.0),
    "executors.longArraysMiB" -> (16.0, 64.0),
    "executors.fds" -> (10.0, 16.0),
    "executors.threads" -> (5.0, 4.0),
    "executors.encoders" -> (2.0, 2.0),
    "executors.decoders" -> (2.0, 2.0),
    "shufflesTracked" -> (20.0, 20.0),
    "accumulators" -> (100.0, 1000.0),
    "localFiles" -> (200.0, 200.0),
    "uiKaeStageRows" -> (0.0, Soak.RetainedStages * 0.1)
  )

  private def check(run: Soak.Run, sparkRun: Option[Soak.Run]): Unit = {
    val (kae, spark) = (run.samples, sparkRun.map(_.samples))
    val span = (kae.last.shuffles - kae(kae.size / 3).shuffles).max(1)
    for ((measure, (bound, noise)) <- Bounds if kae.exists(_.values.contains(measure))) {
      val grew = Soak.growth(kae, measure)
      val sparkGrew = spark.map(Soak.growth(_, measure))
      val byKind = parts(kae, measure)
      info(f"$measure: ${kae.last.values(measure)}%.1f at the end, $grew%.2f per 1,000 " +
        f"shuffles after warm-up" + sparkGrew.fold("")(g => f" (Spark's shuffle: $g%.2f)") +
        byKind)
      val allowed = bound + noise * 1000 / span + sparkGrew.getOrElse(0.0).max(0.0)
      assert(
        grew <= allowed,
        s"$measure grows by $grew per 1,000 shuffles" + byKind +
          (if (measure == "driver.heapMiB") run.driverGrew.mkString(" (most grown: ", ", ", ")")
           else "")
      )
    }
    assert(kae.forall(_.values("uiKaeStageRows") <= Soak.RetainedStages))
    assert(kae.last.values("localFiles") < 2000, "shuffle files stay until the end")
    // Once the cleaner caught up: every shuffle gone, its files and its accumulator with it.
    info(s"after the run: ${run.released}")
    assert(run.released("shufflesTracked") == 0, run.released)
    assert(run.released("localFiles") == 0, run.released)
    val sparkKept = sparkRun.map(_.released("accumulators")).getOrElse(0.0)
    assert(run.released("accumulators") <= sparkKept + 50, run.released)
  }

  /** How each part of `measure` grew (descriptors by kind), so that a failure says which. */
  private def parts(samples: Seq[Soak.Sample], measure: String): String = {
    val prefix = measure + "."
    val names = samples.last.values.keys.filter(_.startsWith(prefix)).toSeq.sorted
    if (names.isEmpty) ""
    else names.map(n => f"${n.stripPrefix(prefix)} ${Soak.growth(samples, n)}%.1f")
      .mkString(" (by kind: ", ", ", ")")
  }

  test("a short soak: 240 shuffles and a streaming query, nothing grows") {
    val plan = Soak.Plan(shuffles = 240, batches = 20, sampleEvery = 40, streamPartitions = 20)
    val kae = Soak.run(Sessions.conf(Some("auto"), Sessions.Kryo, "local[2]"), plan)
    check(kae, None)
  }

  defaultLineTest("a long soak in local-cluster, against Spark's shuffle") {
    val plan = Soak.Plan(
      shuffles = sys.props.getOrElse("kae.soak.shuffles", "5000").toInt,
      batches = sys.props.getOrElse("kae.soak.batches", "2000").toInt,
      sampleEvery = 100,
      streamPartitions = sys.props.getOrElse("kae.soak.partitions", "200").toInt
    )
    // The executors live for the whole soak: the test JVM's JIT, not the C1 the build gives the
    // short-lived JVMs of the other suites through the environment (outside the build: none
    // set, the JVM's default, the full JIT).
    val jit = sys.props.getOrElse("kae.test.jvmJit", "")
    def run(codec: Option[String]) = Sessions.withTestingMode {
      val conf = Sessions.conf(codec, Sessions.Kryo, "local-cluster[2,2,1024]")
        .set("spark.executorEnv.JAVA_TOOL_OPTIONS", jit)
      Soak.run(conf, plan)
    }
    val spark = run(None)
    val kae = run(Some("auto"))
    sys.props.get("kae.soak.out")
      .foreach(out => SoakPage.write(Paths.get(out), plan, kae, spark))
    check(kae, Some(spark))
  }
}
