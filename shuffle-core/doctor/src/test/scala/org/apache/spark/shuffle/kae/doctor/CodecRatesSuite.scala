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
package doctor

import io.github.kaeshuffle.codec.CodecOptions
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, StageTotals}

/** The codec's reference rates, which the event-log command prints next to a stage's. */
class CodecRatesSuite extends AnyFunSuite {
  import KaeShuffleMetrics._

  private val s = 1000000000L

  private def totals(run: Long, kae: (String, Long)*): StageTotals =
    StageTotals(3, 0, "map", 200, run, readBytes = 0L, writeBytes = 100L << 20, kae.toMap)

  test("the codec's rate on this machine is measured once and shown next to the stage's") {
    val options = CodecOptions.builder().codec("java").build()
    val r = CodecRates.of(options)
    assert(r eq CodecRates.of(options))
    assert(r.codec.startsWith("java level 1") && r.compressNanos > 0 && r.decompressNanos > 0)
    val t = totals(s, WriteRawBytes -> 1000, WriteSerializeNanos -> 5, WriteCodecNanos -> 5)
    assert(ShuffleDoctor.diagnose(t, Some(r)).get.line.contains("(java level 1 on this " +
      "machine: compress "))
  }
}
