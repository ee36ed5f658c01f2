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

/** Runs `body` every `periodMillis` on a daemon thread named `name` until stopped. */
final class Periodic(periodMillis: Long, name: String)(body: => Unit) {
  @volatile private var running = true
  private val thread = new Thread(
    () =>
      while (running) {
        body
        try Thread.sleep(periodMillis)
        catch { case _: InterruptedException => running = false }
      },
    name)
  thread.setDaemon(true)
  thread.start()

  /** Stops the thread, waiting up to a second for its last round. */
  def stop(): Unit = {
    running = false
    thread.join(1000)
  }
}
