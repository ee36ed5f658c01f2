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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

/**
 * The machine's busy CPU seconds so far (/proc/stat: all but idle and iowait): the CPU of a run
 * whose JVMs are not this one's (applications, their executors, test hosts), on a machine that
 * runs nothing else. [[kernelSeconds]] is the part spent in the kernel (system, irq, softirq):
 * page faults, reclaim and IO, which a JVM's profiler does not see.
 */
object MachineCpu {
  def seconds(): Double = {
    val cpu = fields()
    (cpu.sum - cpu(3) - cpu(4)) / 100.0
  }

  def kernelSeconds(): Double = {
    val cpu = fields()
    (cpu(2) + cpu(5) + cpu(6)) / 100.0
  }

  /** user nice system idle iowait irq softirq steal ..., in clock ticks of 1/100 s. */
  private def fields(): Array[Long] =
    new String(Files.readAllBytes(Paths.get("/proc/stat")), StandardCharsets.US_ASCII)
      .linesIterator.next().split("\\s+").drop(1).map(_.toLong)
}
