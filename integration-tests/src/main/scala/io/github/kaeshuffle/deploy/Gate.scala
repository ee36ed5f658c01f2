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

import java.nio.file.{Files, Path}

/**
 * A handshake between an application and the test that submitted it, through files in a
 * directory both can see: the application says where it stands with a marker file and waits for
 * the test to answer with another, so a test can act (restart a service, damage a file) at one
 * exact point of the job.
 */
final class Gate(dir: Path) {

  /**
   * Writes `reached`, then waits until `answer` exists or `timeoutSeconds` pass.
   *
   * @return whether the answer came; a test that never answers fails on the report, not by a
   *     hanging application
   */
  def reachAndAwait(reached: String, answer: String, timeoutSeconds: Long = 180): Boolean = {
    Files.createDirectories(dir)
    Files.write(dir.resolve(reached), Array.emptyByteArray)
    val until = System.nanoTime() + timeoutSeconds * 1000L * 1000 * 1000
    while (!Files.exists(dir.resolve(answer)) && System.nanoTime() < until) Thread.sleep(200)
    Files.exists(dir.resolve(answer))
  }
}
