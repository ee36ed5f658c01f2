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
import java.lang.management.{BufferPoolMXBean, ManagementFactory}
import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.DirectMemory

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * What one JVM (the driver, or an executor, from a task) holds now: live heap objects, resident
 * memory, direct and mapped memory (the JVM's pools and our native maps), open file descriptors,
 * threads, and the native encoders and decoders its shuffle manager made.
 */
object JvmSample {

  /** The open descriptors by what they point at; `fds` is their sum. */
  val FdKinds: Seq[String] = Seq("jars", "shuffleFiles", "otherFiles", "sockets", "pipes", "other")

  val Names: Seq[String] = Seq("heapMiB", "longArraysMiB", "rssMiB", "directMiB", "fds") ++
    FdKinds.map("fds." + _) ++ Seq("threads", "encoders", "decoders")

  private val MiB = 1024.0 * 1024

  def take(): Map[String, Double] = {
    val (heap, longArrays, fds) = liveHeapAndFds()
    val pools = ManagementFactory.getPlatformMXBeans(classOf[BufferPoolMXBean]).asScala
    val direct = pools.map(_.getMemoryUsed).sum + DirectMemory.mappedBytes()
    val (encoders, decoders) = KaeSparkAccess.nativeCodecsCreated
    Map(
      "heapMiB" -> heap / MiB,
      "longArraysMiB" -> longArrays / MiB,
      "rssMiB" -> rssKiB() / 1024.0,
      "directMiB" -> direct / MiB,
      "fds" -> fds.values.sum.toDouble,
      "threads" -> ManagementFactory.getThreadMXBean.getThreadCount.toDouble,
      "encoders" -> encoders.toDouble,
      "decoders" -> decoders.toDouble
    ) ++ FdKinds.map(k => s"fds.$k" -> fds.getOrElse(k, 0).toDouble)
  }

  /**
   * The bytes of live objects other than long[] arrays, and of those ([[LongArrays]]), each the
   * least of three readings, summed from the class histogram (which runs its own full
   * collection). The heap pools' "after collection" figures were tried first and were noise: in a
   * test JVM shared with other suites they rose tens of MiB over a soak while the live objects
   * that grew added up to a few MiB, since young collections after the full one leave their
   * survivors, and the old generation's garbage, in the pools' figures. The open descriptors are
   * read beside each histogram and the reading with the fewest kept: in local mode the driver is
   * the executor, and a running task's shuffle and state files come and go between readings.
   */
  private def liveHeapAndFds(): (Long, Long, Map[String, Int]) = {
    val readings = (0 until 3).map { i =>
      if (i > 0) Thread.sleep(200)
      (HeapHistogram.take(), descriptors())
    }
    def least(counted: String => Boolean) =
      readings.map(_._1.iterator.collect { case (name, b) if counted(name) => b }.sum).min
    (least(_ != LongArrays), least(_ == LongArrays), readings.map(_._2).minBy(_.values.sum))
  }

  /**
   * This process's open descriptors by [[FdKinds]], so that descriptors found growing say what
   * they are: class-path jars open once each, files under a block manager's directory (shuffle
   * and spill files: `blockmgr-`), other files, sockets, pipes, and the rest (epoll and event
   * descriptors). One that closes while it is read is left out.
   */
  private def descriptors(): Map[String, Int] = {
    val fds = Option(new File("/proc/self/fd").listFiles()).getOrElse(Array.empty[File])
    fds.toSeq.flatMap(fd => scala.util.Try(Files.readSymbolicLink(fd.toPath).toString).toOption)
      .groupBy(kind).map { case (k, targets) => k -> targets.size }
  }

  private def kind(target: String): String =
    if (target.startsWith("socket:")) "sockets"
    else if (target.startsWith("pipe:")) "pipes"
    else if (!target.startsWith("/")) "other"
    else if (target.endsWith(".jar")) "jars"
    else if (target.contains("/blockmgr-")) "shuffleFiles"
    else "otherFiles"

  /**
   * long[] arrays, counted apart from the rest of the heap: a task running beside the sample (a
   * micro-batch of the soak's query) can hold one of Spark's on-heap execution pages, a long[] of
   * up to 64 MiB. The least of three readings apart leaves most such passing holdings out, but
   * gates still met one page held through all three (+33 to +64 MiB at one sample); apart, the
   * rest of the heap is measured without them and long[] keeps a bound of its own.
   */
  private val LongArrays = "[J"

  /** The process's pid with its sample, as an executor's task returns it. */
  def withPid(): (Long, Map[String, Double]) = (ProcessHandle.current().pid(), take())

  private def rssKiB(): Long = Files.readAllLines(Paths.get("/proc/self/status")).asScala
    .find(_.startsWith("VmRSS:")).map(_.replaceAll("[^0-9]", "").toLong).getOrElse(0L)
}
