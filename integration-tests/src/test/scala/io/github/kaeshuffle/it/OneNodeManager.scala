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

import org.scalatest.{BeforeAndAfterAll, Suite}

/**
 * A suite whose cluster is a MiniYARNCluster's ResourceManager and one real NodeManager process
 * running our service jar: the jar, and the cluster stopped after the suite, or as soon as its
 * start fails (ScalaTest runs no afterAll after a failed beforeAll), so that no NodeManager
 * outlives the run holding its ports.
 */
trait OneNodeManager extends BeforeAndAfterAll { this: Suite =>
  protected val serviceJar = new File(sys.props.getOrElse("kae.test.serviceJar", "missing"))
  protected def yarn: MiniYarn
  protected var nm: NodeManagerProcess = _

  /** Runs `start`, the cluster's start; where it fails, stops what did start. */
  protected def startCluster(start: => Unit): Unit = {
    require(serviceJar.isFile, s"$serviceJar is missing: build with mvn verify from the root")
    try start
    catch {
      case e: Throwable =>
        scala.util.Try(afterAll())
        throw e
    }
  }

  override def afterAll(): Unit = {
    try if (nm != null) nm.kill()
    finally
      try yarn.stop()
      finally super.afterAll()
  }
}
