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

import org.scalatest.funsuite.AnyFunSuite

class ThreadCpuSuite extends AnyFunSuite {
  test("threads are grouped by the names the kernel keeps of them") {
    import ThreadCpu._
    assert(groupOf("Executor task l").contains(Tasks))
    assert(groupOf("C2 CompilerThre").contains(Jit))
    assert(groupOf("C1 CompilerThre").contains(Jit))
    assert(groupOf("GC Thread#0").contains(Gc))
    assert(groupOf("G1 Conc#0").contains(Gc))
    assert(groupOf("VM Thread").contains(Gc))
    assert(groupOf("kae-writeback-p").contains(Ours))
    assert(groupOf("dispatcher-Exec").isEmpty)
  }

  test("a JVM that is no executor counts as the driver, whole") {
    assume(new java.io.File("/proc/self/task").isDirectory, "needs Linux's /proc")
    val cpu = new ThreadCpu(ProcessHandle.current())
    var spin = 0L
    val until = System.nanoTime() + 200000000L
    while (System.nanoTime() < until) spin += 1
    cpu.sample()
    val split = cpu.split
    assert(split.driver > 0, split)
    assert(Seq(split.tasks, split.jit, split.gc, split.ours, split.other).forall(_ == 0), split)
  }

  test("a thread that ended keeps what it spent") {
    assume(new java.io.File("/proc/self/task").isDirectory, "needs Linux's /proc")
    val cpu = new ThreadCpu(ProcessHandle.current(), _ => true)
    val spun = new java.util.concurrent.CountDownLatch(1)
    val end = new java.util.concurrent.CountDownLatch(1)
    val spinner = new Thread(
      () => {
        val own = java.lang.management.ManagementFactory.getThreadMXBean
        var spin = 0L
        while (own.getCurrentThreadCpuTime < 300000000L) spin += 1
        spun.countDown()
        end.await()
      },
      "kae-spinner"
    )
    spinner.start()
    spun.await()
    cpu.sample()
    end.countDown()
    spinner.join()
    cpu.sample()
    assert(cpu.split.ours >= 0.25, cpu.split)
  }
}
