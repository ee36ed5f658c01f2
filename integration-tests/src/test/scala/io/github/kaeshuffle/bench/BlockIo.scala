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
import java.nio.file.{Files, Path, Paths}

/** Bytes a block device has read and written since it appeared (its /sys/dev/block stat). */
final case class BlockIo(readBytes: Long, writtenBytes: Long) {
  def -(o: BlockIo): BlockIo = BlockIo(readBytes - o.readBytes, writtenBytes - o.writtenBytes)
  def +(o: BlockIo): BlockIo = BlockIo(readBytes + o.readBytes, writtenBytes + o.writtenBytes)
}

object BlockIo {

  /** The major:minor of the device that holds `path`. */
  def deviceOf(path: Path): String = {
    val dev = Files.getAttribute(path, "unix:dev").asInstanceOf[Long]
    val major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL)
    val minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL)
    s"$major:$minor"
  }

  /** The device's counters now: the stat file's sectors read and written, 512 bytes each. */
  def now(device: String): BlockIo = {
    val stat = Paths.get(s"/sys/dev/block/$device/stat")
    val f = new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII).trim.split("\\s+")
    BlockIo(f(2).toLong * 512, f(6).toLong * 512)
  }
}
