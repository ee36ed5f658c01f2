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

import io.github.kaeshuffle.codec.Codecs
import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight

import org.apache.spark.SparkConf
import org.apache.spark.scheduler.SparkListenerEvent

/**
 * What the driver's shuffle manager chose for the application, posted on Spark's listener bus
 * with the first shuffle, so the UI tab shows it live and the event log carries it to the
 * History Server (Spark writes events of its listener bus it does not know as JSON, with the
 * class name, and the History Server reads them back with this class on its class path).
 *
 * @param sparkLine the Spark line the jar is built for
 * @param codec the block codec the driver's JVM chose
 * @param codecReason why (Codecs.select's reason)
 * @param hardware the KAEzip preflight's verdict on the driver's host, or why it was not asked
 * @param settings the application's `spark.shuffle.kae.*` settings that differ from the defaults
 * @param ioEncryption whether frames are encrypted (`spark.io.encryption.enabled`)
 */
private[spark] case class KaeShuffleStarted(
    sparkLine: String,
    codec: String,
    codecReason: String,
    hardware: String,
    settings: Map[String, String],
    ioEncryption: Boolean) extends SparkListenerEvent

private[spark] object KaeShuffleStarted {

  /**
   * What this JVM's manager chose: the codec as `Codecs.select` chose it, and the KAEzip
   * preflight's report as the manager logged it at start (asked again, its round trip would open
   * a hardware session each way).
   */
  def of(settings: KaeShuffleSettings, conf: SparkConf): KaeShuffleStarted = {
    val options = settings.codecOptions
    val (codec, reason, hardware) =
      if (!settings.enabled) ("-", s"${KaeShuffleConf.ENABLED.key}=false", "not asked")
      else {
        val selection = Codecs.select(options)
        val verdict =
          if (options.codec().mayUseHardware()) KaeZipPreflight.logOnce(options).verdict()
          else s"not asked (${KaeShuffleConf.CODEC.key}=${options.codec().id()})"
        (selection.codec().name(), selection.reason(), verdict)
      }
    KaeShuffleStarted(
      SparkLine.BUILT,
      codec,
      reason,
      hardware,
      KaeShuffleConf.differFromDefaults(conf),
      conf.getBoolean("spark.io.encryption.enabled", false))
  }
}

/** A shuffle that Spark's own sort shuffle serves, and why. */
private[spark] case class KaeShuffleFellBack(shuffleId: Int, reason: String)
  extends SparkListenerEvent
