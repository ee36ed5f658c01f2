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
import java.nio.file.{Files, Path, Paths}
import java.util.Locale
import java.util.concurrent.TimeUnit

import scala.jdk.CollectionConverters._

/**
 * A node's scarce resources per core, to give a test host the share of them its cores would have
 * on that node (docs/benchmarks/scale/README.md names each figure's source): the disk's rate,
 * the link's rate, and the memory an executor slot has, its heap and the page cache beside it.
 *
 * @param diskPerCore bytes per second of the node's disks, divided by its cores
 * @param linkPerCore bits per second of the node's link, divided by its cores
 * @param memoryPerSlot the node's memory divided by the executors it runs at once
 */
final case class NodeShape(
    name: String,
    diskPerCore: Long,
    linkPerCore: Long,
    memoryPerSlot: Long) {
  require(diskPerCore >= 100000, s"shape $name: a disk of $diskPerCore B/s per core is too slow")
  require(linkPerCore >= 100000, s"shape $name: a link of $linkPerCore bit/s per core is too slow")
  require(memoryPerSlot >= (1L << 30), s"shape $name: $memoryPerSlot B per executor is too little")

  def diskRate(cores: Int): Long = diskPerCore * cores

  /** The link's rate for `cores` cores in tc's units (the cluster harness's links). */
  def linkRate(cores: Int): String = s"${linkPerCore * cores / 1000}kbit"

  /** Dirty pages as Linux bounds them by default (20% of memory), of this share of the node. */
  def dirtyBytes(cores: Int): Long = memoryPerSlot * cores / 5

  override def toString: String =
    "%s: disk %.1f MB/s, link %.1f Mbit/s, %.1f GiB per executor slot (per core)".formatLocal(
      Locale.ROOT,
      name,
      diskPerCore / 1e6,
      linkPerCore / 1e6,
      memoryPerSlot / (1024.0 * 1024 * 1024))
}

object NodeShape {
  private val GiB = 1L << 30

  /**
   * The study's Kunpeng node (TaiShan 200): 128 cores, 128 GB, two 7200 RPM SATA disks of about
   * 190 MB/s each, 1 Gbit/s, at most 40 executors of 1 core at once.
   */
  val KunpengStudy: NodeShape =
    NodeShape("kunpeng-study", 380000000L / 128, 1000000000L / 128, 128 * GiB / 40)

  /** The study's x86 node: an i5-8400 (6 cores), 24 GB, one such disk, 1 Gbit/s. */
  val X86Study: NodeShape = NodeShape("x86-study", 190000000L / 6, 1000000000L / 6, 24 * GiB / 6)

  val Presets: Seq[NodeShape] = Seq(KunpengStudy, X86Study)

  /** The preset named `name`, if one is. */
  def preset(name: String): Option[NodeShape] = Presets.find(_.name == name)

  /**
   * A preset by name, or explicit per-core figures: `disk=3m,link=8m,memory=3g` (bytes per second,
   * bits per second and bytes, with k, m or g for thousands, millions and billions; memory's g
   * is GiB).
   */
  def parse(spec: String): NodeShape =
    preset(spec).getOrElse {
      val fields = spec.split(',').map(_.split('=')).map {
        case Array(k, v) => k.trim -> v.trim
        case other => throw new IllegalArgumentException(
            s"node shape '$spec': '${other.mkString("=")}' is not key=value; use a preset " +
              s"(${Presets.map(_.name).mkString(", ")}) or disk=..,link=..,memory=..")
      }.toMap
      val unknown = fields.keySet -- Set("disk", "link", "memory")
      require(unknown.isEmpty, s"node shape '$spec': unknown ${unknown.mkString(", ")}")
      def need(k: String) = fields.getOrElse(
        k,
        throw new IllegalArgumentException(s"node shape '$spec' names no $k"))
      NodeShape(
        "custom-" + spec.replaceAll("[^a-z0-9]+", "-"),
        amount(need("disk"), 1000),
        amount(need("link"), 1000),
        amount(need("memory"), 1024))
    }

  /** `12`, `3k`, `3m`, `3g` with steps of `step`; a fraction is allowed (`1.5g`). */
  def amount(v: String, step: Long): Long = {
    val units = Map('k' -> step, 'm' -> step * step, 'g' -> step * step * step)
    val (digits, unit) = units.get(v.last.toLower) match {
      case Some(u) => (v.dropRight(1), u)
      case None => (v, 1L)
    }
    val n =
      try BigDecimal(digits)
      catch {
        case _: NumberFormatException =>
          throw new IllegalArgumentException(s"'$v' is not an amount like 3, 3k, 3m or 3g")
      }
    (n * unit).toLong
  }

  private def scriptFile: File =
    Paths.get(sys.props.getOrElse("basedir", "."), "src/test/scripts/node-shape.sh").toFile

  /** Why a node shape cannot be made here, or None where it can. */
  lazy val unavailable: Option[String] = {
    val (code, out) = script(30, "can")
    if (code == 0) None else Some(out.trim)
  }

  /**
   * Before making shapes: refuses with why where they cannot be made, then removes what a killed
   * run left.
   */
  def prepare(): Unit = {
    unavailable.foreach(why => sys.error(s"no node shape here: $why"))
    clean()
  }

  /** Removes what a killed run left (every shape the script knows). */
  def clean(): Unit = {
    val (code, out) = script(120, "clean")
    require(code == 0, s"node-shape.sh clean failed:\n$out")
  }

  private[it] def script(timeoutSeconds: Long, args: String*): (Int, String) = {
    val out = Files.createTempFile("node-shape", ".out")
    try {
      val p = new ProcessBuilder((Seq("bash", scriptFile.getAbsolutePath) ++ args).asJava)
        .redirectErrorStream(true)
        .redirectOutput(out.toFile)
        .start()
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly()
        (-1, s"node-shape.sh ${args.mkString(" ")} took over $timeoutSeconds s")
      } else (p.exitValue(), new String(Files.readAllBytes(out), StandardCharsets.UTF_8))
    } finally Files.deleteIfExists(out)
  }

  /**
   * Makes `shape` for a test host of `cores` cores under `dir`: a disk of `diskMib` MiB at the
   * shape's rate, and a memory cgroup of the cores' share plus `otherBytes` (the JVMs that hold
   * no executor slot: a driver, local-cluster's master and workers). `dirtyBytes` replaces the
   * shape's dirty-page bound, for tests whose few MiB must meet it. `name` tells apart shapes
   * made at once (a cluster's hosts); the kernel's dirty-page bound is one for all of them.
   */
  def up(
      shape: NodeShape,
      cores: Int,
      dir: Path,
      diskMib: Long,
      otherBytes: Long,
      dirtyBytes: Option[Long] = None,
      name: Option[String] = None): ShapedHost = {
    unavailable.foreach(why => throw new IllegalStateException(s"no node shape here: $why"))
    val memory = shape.memoryPerSlot * cores + otherBytes
    val label = name.getOrElse(shape.name)
    val (code, out) = script(
      300,
      "up",
      label,
      dir.toString,
      shape.diskRate(cores).toString,
      memory.toString,
      dirtyBytes.getOrElse(shape.dirtyBytes(cores)).toString,
      diskMib.toString
    )
    require(code == 0, s"node-shape.sh up $label failed:\n$out")
    val fields = out.linesIterator.map(_.split(" ", 2)).collect { case Array(k, v) => k -> v }.toMap
    new ShapedHost(
      shape,
      label,
      cores,
      Paths.get(fields("mount")),
      Paths.get(fields("cgroup")),
      fields("device"))
  }
}

/**
 * A shape made on this machine under `name`: its disk mounted at `mount`, the memory cgroup whose
 * `cgroup.procs` is `procs`, the disk's block device `device` (major:minor). `close` removes it
 * all; so does the next run's [[NodeShape.clean]] after a kill.
 */
final class ShapedHost private[it] (
    val shape: NodeShape,
    val name: String,
    val cores: Int,
    val mount: Path,
    val procs: Path,
    val device: String)
  extends AutoCloseable {
  private val hook = new Thread(() => close())
  Runtime.getRuntime.addShutdownHook(hook)

  /** Writes and reads through the disk; fails when a rate is off by more than 20%. */
  def check(): String = {
    val (code, out) = NodeShape.script(120, "check", name, shape.diskRate(cores).toString)
    require(code == 0, s"the $name disk's self-check failed: ${out.trim}")
    out.trim
  }

  /** A command that runs `command` inside the shape's memory cgroup. */
  def inside(command: Seq[String]): Seq[String] =
    Seq("bash", "-c", s"""echo $$$$ > '$procs' && exec "$$0" "$$@"""") ++ command

  override def close(): Unit = synchronized {
    val (code, out) = NodeShape.script(300, "down", name)
    require(code == 0, s"node-shape.sh down $name failed:\n$out")
    try Runtime.getRuntime.removeShutdownHook(hook)
    catch { case _: IllegalStateException => } // closing from the hook itself
  }
}
