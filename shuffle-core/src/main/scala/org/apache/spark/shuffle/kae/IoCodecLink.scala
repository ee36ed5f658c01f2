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

import java.util.concurrent.atomic.AtomicReference

import io.github.kaeshuffle.writer.LinkCost

import org.apache.spark.{SparkConf, SparkContext, Success}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics._
import org.apache.spark.shuffle.kae.metrics.ShuffleCounts

/**
 * What the network costs a stored byte, for the streams of [[KaeIoCodec]] on the driver: the
 * broadcasts it writes cross the links to every executor, and no stage of their own measures that.
 * The driver's manager hands its [[LinkCost]] over at its first shuffle, where KaeIoCodec is Spark's
 * IO codec, and feeds it with what the executors' reduce tasks waited for the network (their
 * accumulator updates: fetch wait, stored bytes, bytes from other hosts), as an executor's map
 * tasks price their stored bytes with its own reduce tasks' waits. Executors keep the first step
 * for their streams (cached blocks, checkpoints), which stay on their host.
 */
private[kae] object IoCodecLink {
  private val current = new AtomicReference[LinkCost]()

  /** The driver's link price, once its manager listens to the executors' tasks. */
  def get: Option[LinkCost] = Option(current.get)

  /** On the driver, where KaeIoCodec is Spark's IO codec: learns the link for its streams. */
  def listen(sc: SparkContext, link: LinkCost): Unit =
    if (isIoCodec(sc.conf) && install(link)) sc.addSparkListener(new Listener(link))

  /** Makes `link` the driver's, unless one is already; whether it did. */
  private[kae] def install(link: LinkCost): Boolean = current.compareAndSet(null, link)

  /** The manager that listened stops: its application's link is no other one's. */
  def forget(link: LinkCost): Unit = current.compareAndSet(link, null)

  private def isIoCodec(conf: SparkConf): Boolean =
    conf.get("spark.io.compression.codec", "") == classOf[KaeIoCodec].getName

  private final class Listener(link: LinkCost) extends SparkListener {
    override def onTaskEnd(event: SparkListenerTaskEnd): Unit =
      if (event.reason == Success && event.taskInfo != null) {
        val c = ShuffleCounts.fromAccumulables(event.taskInfo.accumulables, _.update)
        val read = c(ReadInPlaceBytes) + c(ReadCopiedBytes) + c(ReadMappedBytes) +
          c(ReadFileReadBytes)
        link.add(c(ReadFetchNanos), read, c(ReadOtherHostBytes))
      }
  }
}
