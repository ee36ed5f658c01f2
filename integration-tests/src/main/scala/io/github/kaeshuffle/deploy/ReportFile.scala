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
package io.github.kaeshuffle.deploy

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

/** The file an application leaves for its test: one `key value` line each. */
object ReportFile {
  def write(report: Path, lines: Seq[String]): Unit = {
    Files.createDirectories(report.toAbsolutePath.getParent)
    Files.write(report, lines.mkString("", "\n", "\n").getBytes(StandardCharsets.UTF_8))
  }
}
