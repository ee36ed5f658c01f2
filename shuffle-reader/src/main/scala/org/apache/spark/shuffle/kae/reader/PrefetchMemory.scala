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

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.file.Path

import io.github.kaeshuffle.codec.DirectMemory
import io.github.kaeshuffle.reader.{DecodeWindow, ReaderSettings}

import org.apache.spark.internal.Logging
import org.apache.spark.memory.{MemoryConsumer, MemoryMode, TaskMemoryManager}

/**
 * A reduce task's decompress-ahead memory, as execution memory of the task: decode windows,
 * reused by its streams in turn (a second one only if two streams are open at once), off-heap
 * staging buffers for fetched ranges Netty received in several parts, and heap copies of ranges
 * whose received bytes cannot be reached. All freed explicitly by [[close]] (never left to the
 * garbage collector), after the streams using them have stopped.
 *
 * Windows and staging buffers are direct memory (or, for a mapped window, file pages): counted in
 * Spark's off-heap pool when it has one (`spark.memory.offHeap.enabled`), else in the on-heap
 * pool, which then stands for them as it does for Spark's own Tungsten pages (docs/yarn.md:
 * memoryOverhead). Heap copies are always on-heap.
 *
 * @param windowDir where a mapped window's file goes (asked only when one is made)
 */
private[kae] final class PrefetchMemory(
    tmm: TaskMemoryManager,
    settings: ReaderSettings,
    windowDir: () => Path)
  extends MemoryConsumer(tmm, tmm.getTungstenMemoryMode) with Logging {

  /** Heap copies of fetched ranges. */
  private val heap = new MemoryConsumer(tmm, MemoryMode.ON_HEAP) {
    override def spill(size: Long, trigger: MemoryConsumer): Long = 0L // copies are in use
  }

  private var idleWindows: List[DecodeWindow] = Nil
  private var allWindows: List[DecodeWindow] = Nil
  private var idleStaging: List[ByteBuffer] = Nil
  private var allStaging: List[ByteBuffer] = Nil

  override def spill(size: Long, trigger: MemoryConsumer): Long = 0L // buffers are in use

  /** A window from the pool, or a new one if execution memory allows; None when it does not. */
  def window(): Option[DecodeWindow] = idleWindows match {
    case w :: rest =>
      idleWindows = rest
      Some(w)
    case Nil =>
      val slots = settings.slots(settings.slotSize)
      val bytes = slots.toLong * settings.slotSize
      if (!reserve(bytes)) None
      else {
        val w = DecodeWindow.allocate(settings.windowKind, slots, settings.slotSize, windowDir())
        allWindows = w :: allWindows
        Some(w)
      }
  }

  def giveBack(w: DecodeWindow): Unit = idleWindows = w :: idleWindows

  /** An idle staging buffer of at least `length` bytes, or a new one if memory allows. */
  def staging(length: Int): Option[ByteBuffer] =
    idleStaging.find(_.capacity() >= length) match {
      case Some(b) =>
        idleStaging = idleStaging.filterNot(_ eq b)
        Some(b)
      case None =>
        // Whole MiBs, so buffers fit later ranges of similar size.
        val mib = 1L << 20
        val capacity = math.min(Int.MaxValue.toLong, (length + mib - 1) & ~(mib - 1))
        if (!reserve(capacity)) None
        else {
          val b = DirectMemory.allocateDirect(capacity.toInt)
          allStaging = b :: allStaging
          Some(b)
        }
    }

  def giveBackStaging(b: ByteBuffer): Unit = idleStaging = b :: idleStaging

  /**
   * Reserves on-heap execution memory for a heap copy of `bytes`; false when it is not granted
   * (the range is then decoded as it streams in).
   */
  def reserveHeapCopy(bytes: Long): Boolean = reserve(heap, bytes)

  def releaseHeapCopy(bytes: Long): Unit = heap.freeMemory(bytes)

  private def reserve(bytes: Long): Boolean = reserve(this, bytes)

  /** Takes `bytes` of execution memory whole, or nothing (Spark refuses requests for none). */
  private def reserve(consumer: MemoryConsumer, bytes: Long): Boolean = bytes <= 0 || {
    val granted = consumer.acquireMemory(bytes)
    if (granted < bytes) consumer.freeMemory(granted)
    granted >= bytes
  }

  /** Frees every window and staging buffer; none may be in use. */
  def close(): Unit = {
    allStaging.foreach { b =>
      DirectMemory.free(b)
      freeMemory(b.capacity())
    }
    allStaging = Nil
    idleStaging = Nil
    allWindows.foreach { w =>
      try w.close()
      catch {
        case e: IOException => logWarning("Could not release a decode window", e)
      }
      freeMemory(w.bytes())
    }
    allWindows = Nil
    idleWindows = Nil
    heap.freeMemory(heap.getUsed) // copies of streams a failed task left open
  }
}
