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

import java.lang.management.ManagementFactory

/**
 * The CPU time of every thread of this JVM so far (tasks, the reader's decompression ahead, the
 * driver, GC, the JIT). On `local[2]` with both cores busy it is the wall time less the noise of
 * a shared host, whose stolen cycles show in the wall time only; it also tells whether a shuffle
 * saved work when the wall time of a query waiting on one long task does not move.
 */
object ProcessCpu {

  /** Seconds of CPU so far; NaN on a JVM that does not report it. */
  def seconds(): Double = ManagementFactory.getOperatingSystemMXBean match {
    case os: com.sun.management.OperatingSystemMXBean => os.getProcessCpuTime / 1e9
    case _ => Double.NaN
  }
}
