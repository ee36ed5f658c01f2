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

import java.nio.file.Files
import java.util.{Properties, Random}

import io.github.kaeshuffle.codec.{CodecKind, CodecOptions, Codecs}
import io.github.kaeshuffle.format.{BlockEncoder, SegmentWriter}
import io.github.kaeshuffle.reader.{DecodeWindow, ReaderSettings}

import org.apache.spark.{SparkConf, SparkContext, TaskContextImpl}
import org.apache.spark.executor.TaskMetrics
import org.apache.spark.memory.{TaskMemoryManager, UnifiedMemoryManager}

/**
 * What the reduce side's pieces need when tested alone: segments as a map task writes them, a
 * task's memory, the reader's settings and a reduce task's context. Spark runs in this JVM
 * ([[ReduceFixture.startSpark]]) where a piece takes the block manager or the sorter from
 * SparkEnv.
 */
private[reader] object ReduceFixture {
  val Block: Int = 16 * 1024
  val Slot: Int = 64 * 1024
  val MiB: Long = 1L << 20

  /** Spark in local mode, without its UI. */
  def startSpark(): SparkContext =
    new SparkContext(
      new SparkConf()
        .setMaster("local[1]")
        .setAppName("reader-alone")
        .set("spark.ui.enabled", "false"))

  /** `n` bytes of words, which lz4 shrinks; the same for every seed. */
  def text(n: Int, seed: Int): Array[Byte] = {
    val words = Array("shuffle", "block", "partition", "segment", "kunpeng")
    val r = new Random(seed)
    val b = new StringBuilder
    while (b.length < n) b.append(words(r.nextInt(words.length))).append(r.nextInt(100)).append(' ')
    b.substring(0, n).getBytes("US-ASCII")
  }

  /** `raw` as one segment of lz4 blocks of [[Block]] bytes. */
  def segment(raw: Array[Byte]): Array[Byte] = {
    val encoder =
      new BlockEncoder(Codecs.exact(CodecOptions.builder().codec(CodecKind.LZ4).build()))
    try SegmentWriter.encode(encoder, Block, raw)
    finally encoder.close()
  }

  /** A task's memory manager over `mib` MiB of Spark's unified memory. */
  def taskMemory(mib: Int): TaskMemoryManager =
    new TaskMemoryManager(
      new UnifiedMemoryManager(new SparkConf(false), mib * MiB, mib * MiB / 2, 1),
      0)

  /** Direct windows of 8 slots of 64 KiB; ranges to 4 MiB in memory, local reads to `localRead`. */
  def settings(prefetch: Boolean, localRead: Int = 4 << 20): ReaderSettings =
    new ReaderSettings(
      null,
      prefetch,
      8L * Slot,
      DecodeWindow.Kind.DIRECT,
      Slot,
      4 * MiB,
      localRead)

  def prefetchMemory(tmm: TaskMemoryManager, settings: ReaderSettings): PrefetchMemory = {
    val dir = Files.createTempDirectory("windows")
    new PrefetchMemory(tmm, settings, () => dir)
  }

  /** A reduce task's context over `tmm`. */
  def context(tmm: TaskMemoryManager): TaskContextImpl =
    new TaskContextImpl(
      0,
      0,
      0,
      1L,
      0,
      1,
      tmm,
      new Properties,
      null,
      TaskMetrics.empty,
      1,
      Map.empty)
}
