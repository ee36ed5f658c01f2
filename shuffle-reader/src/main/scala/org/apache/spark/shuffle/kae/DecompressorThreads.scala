package org.apache.spark.shuffle.kae

import java.util.concurrent.{ExecutorService, Executors, ThreadFactory}
import java.util.concurrent.atomic.AtomicInteger

/** Executor-wide daemon threads that decompress ahead, one per open prefetching stream. */
private[kae] object DecompressorThreads {
  lazy val pool: ExecutorService = Executors.newCachedThreadPool(new ThreadFactory {
    private val n = new AtomicInteger
    override def newThread(r: Runnable): Thread = {
      val t = new Thread(r, s"kae-shuffle-decompress-${n.incrementAndGet()}")
      t.setDaemon(true)
      t
    }
  })
}
