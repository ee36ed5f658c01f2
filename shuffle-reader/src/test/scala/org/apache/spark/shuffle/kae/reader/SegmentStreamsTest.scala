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

import java.io.{FileInputStream, InputStream, IOException}
import java.nio.file.{Files, Path}

import io.github.kaeshuffle.codec.CorruptBlockException
import io.github.kaeshuffle.pool.DecoderPool
import io.github.kaeshuffle.reader.PrefetchingSegmentInput
import io.netty.buffer.{ByteBuf, ByteBufInputStream, Unpooled}
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}
import org.junit.jupiter.api.Assertions.assertThrows

import org.apache.spark.{SparkContext, SparkEnv}
import org.apache.spark.memory.TaskMemoryManager
import org.apache.spark.network.util.LimitedInputStream
import org.apache.spark.storage.{BlockId, BlockManagerId, ShuffleBlockChunkId, ShuffleBlockId}

/**
 * A reduce task's streams alone: decoded as they stream in, ahead from bytes had whole, or on the
 * task's thread for a single block; what a task that ends early leaves (nothing); and a bad stream
 * told to Spark the way its fetcher diagnoses it: raised from the wrapper, handed back as a stream
 * that fails on its first read for a file it checks, and a merged chunk checked frame by frame.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SegmentStreamsTest {
  private val block = ShuffleBlockId(0, 1L, 2)
  private val remote = BlockManagerId("exec-2", "another-host", 7337)
  private var sc: SparkContext = _
  private var dir: Path = _
  private val decoders = new DecoderPool(null, 2)

  @BeforeAll def startSpark(): Unit = {
    sc = ReduceFixture.startSpark()
    dir = Files.createTempDirectory("segment-streams")
  }

  @AfterAll def stopSpark(): Unit = {
    decoders.close()
    sc.stop()
  }

  /** One task's streams; every block is remote unless `here`. */
  private final class Task(
      prefetch: Boolean,
      detectCorrupt: Boolean = true,
      here: Boolean = false) {
    val tmm: TaskMemoryManager = ReduceFixture.taskMemory(16)
    private val settings = ReduceFixture.settings(prefetch)
    private val memory = ReduceFixture.prefetchMemory(tmm, settings)
    private val whole = new WholeSegments(
      SparkEnv.get.blockManager,
      memory,
      settings.maxInMemoryRemote,
      settings.localReadLimit)
    private val address = if (here) SparkEnv.get.blockManager.blockManagerId else remote
    val streams = new SegmentStreams(
      settings,
      decoders,
      memory,
      whole,
      (_: BlockId) => Some((address, 1L << 20)),
      detectCorrupt)
  }

  /** A fetched range as Netty holds it; released (reference count 0) when its stream closes. */
  private def fetched(bytes: Array[Byte]): (ByteBuf, InputStream) = {
    val buf = Unpooled.wrappedBuffer(bytes)
    (buf, new ByteBufInputStream(buf, true))
  }

  private def inFile(bytes: Array[Byte]): (FileInputStream, InputStream) = {
    val file = Files.createTempFile(dir, "shuffle", ".data")
    Files.write(file, bytes)
    val fis = new FileInputStream(file.toFile)
    (fis, new LimitedInputStream(fis, bytes.length))
  }

  /** `raw`'s segment fetched and decoded on the task's thread, not ahead; the task then ends. */
  private def assertDecodedOnTheTasksThread(t: Task, raw: Array[Byte]): Unit = {
    val (_, in) = fetched(ReduceFixture.segment(raw))
    val out = t.streams.decode(block, in)
    assert(!out.isInstanceOf[PrefetchingSegmentInput])
    assert(out.readAllBytes().sameElements(raw))
    out.close()
    t.streams.close()
  }

  @Test def withoutPrefetchAStreamIsDecodedAsItStreamsIn(): Unit = {
    val t = new Task(prefetch = false)
    assertDecodedOnTheTasksThread(t, ReduceFixture.text(100000, 1))
    assert(t.streams.sources().inPlaceBytes == 0, "nothing had whole")
    assert(t.streams.stats().blocks() == 7)
  }

  @Test def aRangeHadWholeIsDecodedAheadAndEverythingGivenBack(): Unit = {
    val raw = ReduceFixture.text(100000, 2)
    val segment = ReduceFixture.segment(raw)
    val t = new Task(prefetch = true)
    val (buf, in) = fetched(segment)
    val out = t.streams.decode(block, in)
    assert(out.isInstanceOf[PrefetchingSegmentInput], "seven blocks are decoded ahead")
    assert(out.readAllBytes().sameElements(raw))
    out.close()
    assert(buf.refCnt() == 0, "the fetched range is released with its stream")
    t.streams.close()
    assert(t.streams.sources().inPlaceBytes == segment.length)
    assert(t.streams.stats().blocks() == 7)
    assert(t.tmm.getMemoryConsumptionForThisTask == 0, "the window is given back")
  }

  @Test def aSingleBlockIsDecodedOnTheTasksThread(): Unit = {
    val t = new Task(prefetch = true)
    assertDecodedOnTheTasksThread(t, ReduceFixture.text(5000, 3))
    assert(t.tmm.getMemoryConsumptionForThisTask == 0, "no window was taken for one block")
  }

  @Test def aTaskThatStopsReadingEarlyStillReleasesEveryStream(): Unit = {
    val t = new Task(prefetch = true)
    val (ahead, aheadIn) = fetched(ReduceFixture.segment(ReduceFixture.text(100000, 4)))
    val (single, singleIn) = fetched(ReduceFixture.segment(ReduceFixture.text(5000, 5)))
    t.streams.decode(block, aheadIn).read(new Array[Byte](100))
    t.streams.decode(block, singleIn).read(new Array[Byte](100))
    t.streams.close() // as a task with a LIMIT ends, its streams unread
    assert(ahead.refCnt() == 0 && single.refCnt() == 0, "both fetched ranges released")
    assert(t.tmm.getMemoryConsumptionForThisTask == 0)
  }

  @Test def aRemoteRangeWithoutASegmentFailsInTheWrapperForSparkToFetchAgain(): Unit = {
    val t = new Task(prefetch = true)
    val (_, in) = fetched(new Array[Byte](0))
    val e = assertThrows(classOf[CorruptBlockException], () => t.streams.decode(block, in))
    assert(e.getMessage == s"$block holds no segment.")
    t.streams.close()
  }

  @Test def aDamagedSegmentInAFileFailsOnItsFirstReadForSparksDiagnosis(): Unit = {
    val damaged = ReduceFixture.text(3000, 6) // words, not a segment
    val t = new Task(prefetch = true, here = true)
    val (fis, in) = inFile(damaged)
    try {
      val out = t.streams.decode(block, in)
      assert(out.isInstanceOf[FailedStream], "handed back, so Spark's fetcher sees a read fail")
      assertThrows(classOf[IOException], () => out.read())
    } finally fis.close()
    val strict = new Task(prefetch = true, detectCorrupt = false, here = true)
    val (fis2, in2) = inFile(damaged)
    try
      assertThrows(
        classOf[IOException],
        () => strict.streams.decode(block, in2): Unit,
        "raised as it is")
    finally fis2.close()
    t.streams.close()
    strict.streams.close()
  }

  @Test def aMergedChunkWithADamagedFrameFailsBeforeItIsRead(): Unit = {
    val segment = ReduceFixture.segment(ReduceFixture.text(100000, 7))
    segment(100) = (segment(100) ^ 0xff).toByte // inside the first frame's compressed bytes
    val chunk = ShuffleBlockChunkId(0, 0, 2, 0)
    val t = new Task(prefetch = true)
    val (_, in) = fetched(segment)
    assertThrows(
      classOf[CorruptBlockException],
      () => t.streams.decode(chunk, in): Unit,
      "Spark reads the original blocks")
    t.streams.close()
    assert(t.tmm.getMemoryConsumptionForThisTask == 0)
  }
}
