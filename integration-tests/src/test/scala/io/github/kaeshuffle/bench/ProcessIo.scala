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

import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._

/**
 * The JVM's I/O counters from Linux's `/proc/self/io`. In local mode the driver JVM is the
 * executor, so the difference over a run is the I/O of the whole job: `wchar`/`rchar` what the
 * process passed to write/read system calls (page cache included), `writeBytes` what it caused
 * to be sent to the storage layer, `cancelledBytes` the part of that cancelled because the file
 * was deleted or truncated before write-back (shuffle files deleted at the end of a job),
 * `readBytes` what was actually fetched from storage (page-cache misses). Zeros where the file
 * does not exist (not Linux).
 */
final case class ProcessIo(
    rchar: Long,
    wchar: Long,
    readBytes: Long,
    writeBytes: Long,
    cancelledBytes: Long) {
  def -(o: ProcessIo): ProcessIo = ProcessIo(
    rchar - o.rchar,
    wchar - o.wchar,
    readBytes - o.readBytes,
    writeBytes - o.writeBytes,
    cancelledBytes - o.cancelledBytes)
}

object ProcessIo {
  val Zero: ProcessIo = ProcessIo(0, 0, 0, 0, 0)

  def now(): ProcessIo = {
    val file = Paths.get("/proc/self/io")
    if (!Files.isReadable(file)) Zero
    else {
      val fields = Files.readAllLines(file).asScala.flatMap { line =>
        line.split(":\\s*") match {
          case Array(k, v) => Some(k.trim -> v.trim.toLong)
          case _ => None
        }
      }.toMap
      def f(k: String) = fields.getOrElse(k, 0L)
      ProcessIo(
        f("rchar"),
        f("wchar"),
        f("read_bytes"),
        f("write_bytes"),
        f("cancelled_write_bytes"))
    }
  }
}
