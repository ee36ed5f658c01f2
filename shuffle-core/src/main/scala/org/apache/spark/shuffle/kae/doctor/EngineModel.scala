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

import java.util.Locale

/**
 * What a hardware deflate engine (KAEzip) charges, for the shuffle doctor: a latency per request,
 * a device throughput per direction, and a set-up per session. The floor of a stage's codec time
 * on the engine is `requests x latency + bytes / throughput + sessions x setup`: codec time near
 * the floor means only fewer requests (larger blocks) or fewer sessions can help; far above it,
 * the time goes elsewhere (software blocks, waits for a context, copies). Only the throughputs are
 * published (7 GB/s compress, 8 GB/s decompress per Kunpeng 920); the latency and set-up defaults
 * are the cost model's guesses, to be replaced by figures measured on real hardware.
 */
private[spark] case class EngineModel(
    requestNanos: Long,
    sessionNanos: Long,
    compressMBps: Long,
    decompressMBps: Long) {

  /** The least time the engine needs for the requests, raw bytes and sessions of one direction. */
  def floorNanos(compress: Boolean, requests: Long, rawBytes: Long, sessions: Long): Long = {
    val mbps = if (compress) compressMBps else decompressMBps
    requests * requestNanos + (if (mbps > 0) rawBytes * 1000 / mbps else 0L) +
      sessions * sessionNanos
  }

  def describe: String = String.format(
    Locale.ROOT,
    "%.0f us per request, %.1f GB/s compress, %.1f GB/s decompress, %.0f us per session",
    Double.box(requestNanos / 1e3),
    Double.box(compressMBps / 1e3),
    Double.box(decompressMBps / 1e3),
    Double.box(sessionNanos / 1e3)
  )
}

private[spark] object EngineModel {

  /** KAEzip's published throughputs; latency and set-up as the cost model's defaults. */
  val KaeZip: EngineModel = EngineModel(50000L, 100000L, 7000L, 8000L)
}
