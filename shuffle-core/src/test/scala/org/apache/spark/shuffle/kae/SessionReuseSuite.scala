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

import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.codec.{StandInZlib, TestCodecs}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/**
 * Native codec sessions are reused across tasks and streams: 200 map tasks open about one
 * compressor per task thread, not one per task, and a reduce stage that reads their 200 outputs
 * opens about one decoder (one native decompressor) per thread that decodes, not one per fetched
 * stream. Encoders and decoders come from the executor's pools and go back when a task or stream
 * is done. Counted twice: by the pools, and outside our code by the zlib stand-in served as the
 * KAEzip library, which counts `deflateInit` and `inflateInit` calls (on KAEzip each one is a
 * hardware session and an 8 MiB buffer).
 */
class SessionReuseSuite extends AnyFunSuite {
  private val MapTasks = 200
  private val ReduceTasks = 4

  for (prefetch <- Seq(true, false)) {
    test(s"200 map outputs read by $ReduceTasks reduce tasks on 2 threads (prefetch $prefetch)") {
      val conf = LocalSpark.conf(master = "local[2]")
        .set("spark.shuffle.kae.reader.prefetch", prefetch.toString)
        .set("spark.shuffle.kae.codec", "kaezip")
        .set("spark.shuffle.kae.kaezip.libraryPath", TestCodecs.testLib("libzstandin.so"))
        .set("spark.shuffle.kae.kaezip.skipHardwareCheck", "true")
      LocalSpark.withSpark(conf) { sc =>
        val streams = new AtomicLong
        sc.addSparkListener(new SparkListener {
          override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
            if (e.taskMetrics != null) {
              streams.addAndGet(e.taskMetrics.shuffleReadMetrics.localBlocksFetched)
            }
        })
        val inits0 = StandInZlib.inflateInitCalls()
        val deflateInits0 = StandInZlib.deflateInitCalls()
        val counts = sc.parallelize(1 to 100000, MapTasks)
          .map(i => (i % 1000, 1L))
          .partitionBy(new org.apache.spark.HashPartitioner(ReduceTasks))
          .mapPartitions(it => Iterator(it.size))
          .collect()
        assert(counts.sum == 100000)
        sc.listenerBus.waitUntilEmpty()
        val manager = sc.env.shuffleManager.asInstanceOf[KaeShuffleManager]
        val created = manager.decodersCreated
        val inits = StandInZlib.inflateInitCalls() - inits0
        val encoders = manager.encodersCreated
        val deflateInits = StandInZlib.deflateInitCalls() - deflateInits0
        println(s"SessionReuseSuite prefetch=$prefetch: $MapTasks map tasks, $encoders " +
          s"encoders created, $deflateInits deflateInit calls; ${streams.get} fetched streams, " +
          s"$created decoders created, $inits inflateInit calls")
        assert(streams.get == MapTasks * ReduceTasks)
        // A task's thread and, while a stream is decoded ahead, its decompressor thread: at most
        // two per task thread, whatever the number of streams.
        assert(created >= 1 && created <= 4, s"$created decoders for ${streams.get} streams")
        assert(inits >= 1 && inits <= created, s"$inits inflateInit calls for $created decoders")
        // Two task threads, each holding one encoder while its map task writes.
        assert(encoders >= 1 && encoders <= 2, s"$encoders encoders for $MapTasks map tasks")
        // Plus, the first time the library is opened in this JVM, the backend's one trial init.
        assert(
          deflateInits >= encoders && deflateInits <= encoders + 1,
          s"$deflateInits deflateInit calls, $encoders encoders")
      }
    }
  }
}
