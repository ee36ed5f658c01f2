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

import org.scalatest.{BeforeAndAfterAll, Suite}

/** A suite with its own MiniYARNCluster, started before its first test and stopped after its last. */
trait MiniYarnPerSuite extends BeforeAndAfterAll { self: Suite =>
  protected def yarn: MiniYarn

  override def beforeAll(): Unit = {
    super.beforeAll()
    yarn.start()
  }

  override def afterAll(): Unit = {
    try yarn.stop()
    finally super.afterAll()
  }
}
