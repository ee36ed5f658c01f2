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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import scala.sys.process._

import io.github.kaeshuffle.bench.BlockIo
import org.scalatest.funsuite.AnyFunSuite

/**
 * The node shapes of the scale benchmark: their figures, and (as root, where loop devices and
 * cgroup v1 exist) a Kunpeng-shaped disk that holds its rate, a process in its memory cgroup,
 * and nothing left on the machine afterwards.
 */
class NodeShapeSuite extends AnyFunSuite {
  private val MiB = 1L << 20

  test("the study's nodes per core, and explicit figures") {
    val k = NodeShape.parse("kunpeng-study")
    assert(k.diskRate(2) == 5937500L) // two ~190 MB/s disks over 128 cores, for 2 cores
    assert(k.linkRate(2) == "15625kbit")
    assert(k.memoryPerSlot == (128L << 30) / 40)
    assert(NodeShape.parse("x86-study").diskRate(2) == 63333332L)
    val c = NodeShape.parse("disk=3m,link=8m,memory=1.5g")
    assert(c.diskPerCore == 3000000L && c.linkPerCore == 8000000L)
    assert(c.memoryPerSlot == 3L * (1L << 29))
  }

  test("a shape that cannot be: a clear message") {
    def refused(spec: String) =
      intercept[IllegalArgumentException](NodeShape.parse(spec)).getMessage
    assert(refused("kunpeng").contains("is not key=value"))
    assert(refused("disk=3m,link=8m").contains("names no memory"))
    assert(refused("disk=3m,link=8m,memory=4g,cpu=2").contains("unknown cpu"))
    assert(refused("disk=3q,link=8m,memory=4g").contains("is not an amount"))
    assert(refused("disk=3k,link=8m,memory=4g").contains("too slow"))
  }

  test("a Kunpeng-shaped disk holds its rate, bounds its processes, and goes without a trace") {
    NodeShape.unavailable.foreach(why => cancel(s"no node shape here: $why"))
    NodeShape.clean()
    val vm = Seq("dirty_bytes", "dirty_ratio", "dirty_background_bytes", "dirty_background_ratio")
    // One read of a whole line: sysctl files answer a one-byte first read with one byte only.
    def vmNow = vm.map(k => k -> Files.readAllLines(Paths.get(s"/proc/sys/vm/$k")).get(0)).toMap
    val before = vmNow
    val dir = Files.createTempDirectory("node-shape-suite")
    val host = NodeShape.up(NodeShape.KunpengStudy, 2, dir, 256, 512 * MiB)
    val loop =
      try {
        info(host.check())
        assert(vmNow("dirty_bytes") == NodeShape.KunpengStudy.dirtyBytes(2).toString)
        val cgroup = host.inside(Seq("cat", "/proc/self/cgroup")).!!
        assert(cgroup.contains("memory:/kae-shape-kunpeng-study"), cgroup)
        val io0 = BlockIo.now(host.device)
        Files.write(host.mount.resolve("f"), new Array[Byte](4 << 20))
        Seq("sync").!
        assert((BlockIo.now(host.device) - io0).writtenBytes >= (4 << 20))
        assert(BlockIo.deviceOf(host.mount) == host.device)
        Seq("losetup", "-j", dir.resolve("kae-shape-kunpeng-study.img").toString).!!
      } finally host.close()
    assert(loop.nonEmpty)
    val left = new String(Seq("losetup", "-a").!!.getBytes, StandardCharsets.UTF_8)
    assert(!left.contains(dir.toString), left)
    assert(!Files.exists(Paths.get("/sys/fs/cgroup/memory/kae-shape-kunpeng-study")))
    assert(!Files.exists(host.mount))
    assert(vmNow == before)
  }
}
