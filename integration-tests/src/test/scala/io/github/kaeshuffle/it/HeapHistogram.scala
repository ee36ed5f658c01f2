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

import java.lang.management.ManagementFactory
import javax.management.ObjectName

/**
 * This JVM's live objects by class (the JVM's `GC.class_histogram`, taken after a full
 * collection), so that a heap found growing can say what grew instead of only how much.
 */
object HeapHistogram {
  private val Row = """^\s*\d+:\s+\d+\s+(\d+)\s+(\S+).*$""".r

  /** Bytes held by each class's live instances. */
  def take(): Map[String, Long] = {
    val text = ManagementFactory.getPlatformMBeanServer.invoke(
      new ObjectName("com.sun.management:type=DiagnosticCommand"),
      "gcClassHistogram",
      Array[AnyRef](Array.empty[String]),
      Array(classOf[Array[String]].getName)
    ).toString
    text.split("\n").iterator.collect { case Row(bytes, name) => name -> bytes.toLong }.toMap
  }

  /** The `n` classes whose live bytes grew most from `before` to `after`, as "class +N KiB". */
  def grown(before: Map[String, Long], after: Map[String, Long], n: Int = 10): Seq[String] =
    after.map { case (name, bytes) => name -> (bytes - before.getOrElse(name, 0L)) }
      .toSeq.filter(_._2 > 0).sortBy(-_._2).take(n)
      .map { case (name, bytes) => s"$name +${bytes / 1024} KiB" }
}
