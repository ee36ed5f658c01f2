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

import java.util.concurrent.TimeUnit

/**
 * Where a test's daemon or application runs: this machine's own network, or one test host of a
 * [[NetnsCluster]] (a network namespace).
 */
sealed trait TestHost {

  /** The address the others reach it at. */
  def address: String

  /** The command that runs `cmd` there. */
  def command(cmd: Seq[String]): Seq[String]

  /** Whether something there accepts connections on `port`. */
  def accepts(port: Int): Boolean
}

object TestHost {

  /** This machine's network: daemons on localhost, as MiniYARNCluster's. */
  case object Local extends TestHost {
    override val address = "localhost"
    override def command(cmd: Seq[String]): Seq[String] = cmd
    override def accepts(port: Int): Boolean = ClusterFaults.accepts(port)
  }

  /** A network namespace with one address: its processes see only the cluster's bridge. */
  final case class Namespace(name: String, address: String) extends TestHost {
    override def command(cmd: Seq[String]): Seq[String] = Seq("ip", "netns", "exec", name) ++ cmd

    override def accepts(port: Int): Boolean = {
      // bash opens the connection from inside the namespace; no tool beyond bash is needed.
      val probe = new ProcessBuilder(
        command(Seq("bash", "-c", s"exec 3<>/dev/tcp/$address/$port")): _*)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
      probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0
    }
  }
}
