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
package org.apache.spark.shuffle.kae

import java.io.File
import java.nio.file.Files

import org.apache.spark.{SparkConf, SparkContext}

/** Shared set-up for suites that run real Spark jobs in local mode. */
object LocalSpark {
  val ManagerClass = "org.apache.spark.shuffle.kae.KaeShuffleManager"

  /** A conf for `master` with KAE Shuffle (or Spark's own shuffle when `kae` is false). */
  def conf(master: String = "local[4]", kae: Boolean = true): SparkConf = {
    val c = new SparkConf(false)
      .setMaster(master)
      .setAppName("kae-test")
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
      .set("spark.unsafe.exceptionOnMemoryLeak", "true")
      .set("spark.local.dir", Files.createTempDirectory(tmp, "spark-local").toString)
    if (kae) c.set("spark.shuffle.manager", ManagerClass) else c
  }

  private def tmp = {
    val d = new File(System.getProperty("java.io.tmpdir"))
    d.mkdirs()
    d.toPath
  }

  /** Runs `f` with a fresh SparkContext, stopped afterwards whatever happens. */
  def withSpark[T](conf: SparkConf)(f: SparkContext => T): T = {
    val sc = new SparkContext(conf)
    try f(sc)
    finally sc.stop()
  }
}
