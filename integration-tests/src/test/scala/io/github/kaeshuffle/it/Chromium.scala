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

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit

/**
 * Debian's Chromium, headless, for the UI tests: the DOM of a page after its scripts ran, and
 * screenshots. README's test command installs it (package chromium); without it the tests that
 * need it cancel with that message.
 */
object Chromium {
  val Missing: String = "Chromium is not installed (/usr/bin/chromium); README's test command " +
    "(.build/test.sh) installs Debian's chromium package"

  lazy val binary: Option[String] =
    Seq("/usr/bin/chromium", "/usr/bin/chromium-browser").find(new File(_).canExecute)

  /** The page's DOM as Chromium serializes it once the page has loaded. */
  def dom(url: String): String = run(Seq("--dump-dom", url))

  /** A PNG of the page as a browser window of the given size shows it. */
  def screenshot(url: String, png: Path, width: Int = 1500, height: Int = 1300): Unit = {
    Files.createDirectories(png.toAbsolutePath.getParent)
    run(Seq(s"--screenshot=${png.toAbsolutePath}", s"--window-size=$width,$height", url))
    assert(Files.size(png) > 0, s"no screenshot of $url")
  }

  private def run(args: Seq[String]): String = {
    val profile = Files.createTempDirectory("kae-chromium")
    // The flags keep a headless browser off this machine's closed network and its own updates.
    val cmd = Seq(
      binary.getOrElse(throw new IllegalStateException(Missing)),
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--hide-scrollbars",
      s"--user-data-dir=$profile"
    ) ++ args
    val out = Files.createTempFile("kae-chromium", ".out")
    val p = new ProcessBuilder(cmd: _*).redirectOutput(out.toFile)
      .redirectError(ProcessBuilder.Redirect.DISCARD).start()
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly()
      throw new IllegalStateException(s"Chromium did not finish in 120 s: ${cmd.mkString(" ")}")
    }
    assert(p.exitValue() == 0, s"Chromium exited with ${p.exitValue()}: ${cmd.mkString(" ")}")
    new String(Files.readAllBytes(out), StandardCharsets.UTF_8)
  }
}
