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

import java.io.{IOException, UncheckedIOException}
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._
import scala.util.Try

/**
 * The CPU seconds of an application's JVMs by what their threads do, read from /proc while it
 * runs: the driver's JVM (in `local-cluster` also its master and workers) as a whole, and in the
 * executors the task threads, the JIT compilers, the garbage collector, our own threads (`kae-`)
 * and the rest (start-up, RPC, the block manager). The machine's CPU seconds say whether a run
 * cost more; this says where, without a profiler: a job a few percent slower whose task threads
 * did not spend more points at the JVMs, not at the shuffle. A thread or process keeps what it was
 * last seen to have spent once it ended (a JVM's threads end one by one as it stops), so up to one
 * period of each is missed. Sampled from one thread.
 */
final class ThreadCpu(
    root: ProcessHandle,
    isExecutor: String => Boolean = _.contains("CoarseGrainedExecutorBackend")) {
  import ThreadCpu._

  /** /proc counts in USER_HZ, 100 on every Linux the kernel's ABI allows. */
  private val ticks = 100.0
  private val seen = scala.collection.mutable.Map[Long, Jvm]()

  /** Reads every process of the tree now. */
  def sample(): Unit = synchronized {
    (Iterator(root) ++ root.descendants().iterator().asScala).foreach { p =>
      val dir = Paths.get(s"/proc/${p.pid}")
      // A process that ended since the listing keeps what it was last seen to have spent.
      try jvm(p.pid, dir).foreach(read(_, dir))
      catch { case _: IOException | _: UncheckedIOException => }
    }
  }

  /** What the processes seen so far spent. */
  def split: CpuSplit = synchronized {
    val (executors, drivers) = seen.values.partition(_.executor)
    def sum(group: String) = executors.map(_.spent(group)).sum
    val named = Groups.map(sum).sum
    CpuSplit(
      drivers.map(_.total).sum,
      sum(Tasks),
      sum(Jit),
      sum(Gc),
      sum(Ours),
      executors.map(_.total).sum - named)
  }

  /** The JVM at `dir`, known or new; None for another process (the shell that starts it). */
  private def jvm(pid: Long, dir: Path): Option[Jvm] = seen.get(pid).orElse {
    val command = new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
    if (!command.contains("java")) None
    else {
      val j = new Jvm(isExecutor(command))
      seen(pid) = j
      Some(j)
    }
  }

  private def read(j: Jvm, dir: Path): Unit = {
    j.total = math.max(j.total, stat(dir.resolve("stat"))._2)
    val threads = Files.list(dir.resolve("task"))
    try {
      threads.iterator().asScala.foreach { t =>
        Try(stat(t.resolve("stat"))).foreach { case (name, seconds) =>
          j.threads(t.getFileName.toString) = (groupOf(name), seconds)
        }
      }
    } finally threads.close()
  }

  /** A thread's or process's name and its user and system seconds (exited threads included). */
  private def stat(file: Path): (String, Double) = {
    val s = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII)
    val name = s.substring(s.indexOf('(') + 1, s.lastIndexOf(')'))
    val fields = s.substring(s.lastIndexOf(')') + 2).split(' ')
    (name, (fields(11).toLong + fields(12).toLong) / ticks)
  }
}

object ThreadCpu {
  val Tasks = "tasks"
  val Jit = "jit"
  val Gc = "gc"
  val Ours = "kae"
  private val Groups = Seq(Tasks, Jit, Gc, Ours)

  /** One JVM: its seconds in all, and each thread's group and seconds when last seen. */
  private final class Jvm(val executor: Boolean) {
    var total = 0.0
    val threads = scala.collection.mutable.Map[String, (Option[String], Double)]()

    def spent(group: String): Double =
      threads.values.collect { case (Some(`group`), seconds) => seconds }.sum
  }

  /** The group of a thread by its name as the kernel keeps it (its first 15 characters). */
  def groupOf(name: String): Option[String] =
    if (name.startsWith("Executor task")) Some(Tasks)
    else if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) Some(Jit)
    else if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name == "VM Thread") {
      Some(Gc)
    } else if (name.startsWith("kae-")) Some(Ours)
    else None
}

/** CPU seconds: the driver's JVM, and the executors' by what their threads do. */
final case class CpuSplit(
    driver: Double,
    tasks: Double,
    jit: Double,
    gc: Double,
    ours: Double,
    other: Double) {
  override def toString: String =
    "driver %.1f, executors: tasks %.1f, JIT %.1f, GC %.1f, kae %.1f, other %.1f".formatLocal(
      java.util.Locale.ROOT,
      driver,
      tasks,
      jit,
      gc,
      ours,
      other)
}

object CpuSplit {

  /** For runs recorded before the split was: every figure unknown. */
  val Unknown: CpuSplit =
    CpuSplit(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN)
}
