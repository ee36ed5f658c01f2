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
package reader

import java.util.concurrent.{Callable, CountDownLatch, TimeUnit}

import org.junit.jupiter.api.Test

/**
 * The decompress-ahead threads are daemons (an executor never waits for them to exit) named for
 * what they do in a thread dump, and as many run as streams are decoded ahead at once.
 */
class DecompressorThreadsTest {

  @Test def eachStreamDecodedAheadGetsADaemonNamedForIt(): Unit = {
    val started = new CountDownLatch(2)
    val release = new CountDownLatch(1)
    val seen = new Callable[Thread] {
      override def call(): Thread = {
        started.countDown()
        release.await(10, TimeUnit.SECONDS)
        Thread.currentThread()
      }
    }
    val a = DecompressorThreads.pool.submit(seen)
    val b = DecompressorThreads.pool.submit(seen)
    assert(started.await(10, TimeUnit.SECONDS), "two streams run at once")
    release.countDown()
    val threads = Seq(a.get(), b.get())
    assert(threads.distinct.size == 2)
    for (t <- threads) {
      assert(t.isDaemon, t.getName)
      assert(t.getName.matches("kae-shuffle-decompress-\\d+"), t.getName)
    }
  }
}
