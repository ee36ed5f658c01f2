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

import java.io.{ByteArrayInputStream, EOFException, FileInputStream, InputStream}
import java.nio.ByteBuffer
import java.nio.file.{Files, Path}

import io.netty.buffer.{ByteBufInputStream, Unpooled}
import org.junit.jupiter.api.{AfterAll, BeforeAll, Test, TestInstance}
import org.junit.jupiter.api.Assertions.assertThrows

import org.apache.spark.{SparkContext, SparkEnv}
import org.apache.spark.memory.TaskMemoryManager
import org.apache.spark.network.util.LimitedInputStream
import org.apache.spark.storage.{BlockManagerId, ShuffleBlockId}

/**
 * Where the reader takes a stream's bytes whole, and what it keeps of them: a segment on this host
 * from the fetcher's own file (a small one read, a large one mapped, the stream left unread), a
 * remote range where Netty received it, gathered into staging from parts, or copied to the heap
 * within execution memory; a range over the limit is left to stream. Every path accounts its bytes
 * to where they came from (fetched ones from another host apart: what crossed a link) and gives its
 * memory back on release.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WholeSegmentsTest {
  private val Limit = 4L << 20
  private val LocalRead = 8192
  private val blockId = ShuffleBlockId(0, 1L, 2)
  private val remote = BlockManagerId("exec-2", "another-host", 7337)
  private var sc: SparkContext = _
  private var dir: Path = _

  @BeforeAll def startSpark(): Unit = {
    sc = ReduceFixture.startSpark()
    dir = Files.createTempDirectory("whole-segments")
  }

  @AfterAll def stopSpark(): Unit = sc.stop()

  private def here = SparkEnv.get.blockManager.blockManagerId

  private def whole(tmm: TaskMemoryManager): WholeSegments =
    new WholeSegments(
      SparkEnv.get.blockManager,
      ReduceFixture.prefetchMemory(tmm, ReduceFixture.settings(prefetch = true)),
      Limit,
      LocalRead)

  private def contents(b: ByteBuffer): Array[Byte] = {
    val a = new Array[Byte](b.remaining())
    b.duplicate().get(a)
    a
  }

  /** `data` in a shuffle file after 100 other bytes; the fetcher's stream over the segment. */
  private def fileSegment(data: Array[Byte], indexLength: Long): (FileInputStream, InputStream) = {
    val file = Files.createTempFile(dir, "shuffle", ".data")
    Files.write(file, new Array[Byte](100) ++ data)
    val fis = new FileInputStream(file.toFile)
    fis.skip(100)
    (fis, new LimitedInputStream(fis, indexLength))
  }

  @Test def aRemoteRangeReceivedAsOneRegionIsUsedWhereItIs(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val data = ReduceFixture.text(1000, 1)
    val in = new ByteBufInputStream(Unpooled.wrappedBuffer(data))
    val got = w.of(blockId, in, Some((remote, 1000L))).get
    assert(contents(got.bytes).sameElements(data))
    assert(w.inPlaceBytes == 1000 && w.copiedBytes == 0)
    assert(w.otherHostBytes == 1000, "it crossed a link")
    assert(tmm.getMemoryConsumptionForThisTask == 0, "no copy, no memory")
  }

  @Test def aRangeFetchedFromAnotherExecutorOfThisHostCrossedNoLink(): Unit = {
    val w = whole(ReduceFixture.taskMemory(16))
    val data = ReduceFixture.text(1000, 9)
    val neighbour = BlockManagerId("exec-3", here.host, 7338)
    val in = new ByteBufInputStream(Unpooled.wrappedBuffer(data))
    val got = w.of(blockId, in, Some((neighbour, 1000L))).get
    assert(contents(got.bytes).sameElements(data))
    assert(w.inPlaceBytes == 1000, "fetched, as its directories are not known here")
    assert(w.otherHostBytes == 0)
  }

  @Test def aRangeNettyAssembledFromPartsIsGatheredIntoStaging(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val first = ReduceFixture.text(300, 2)
    val second = ReduceFixture.text(700, 3)
    val parts = Unpooled.compositeBuffer()
    parts.addComponents(true, Unpooled.wrappedBuffer(first), Unpooled.wrappedBuffer(second))
    val got = w.of(blockId, new ByteBufInputStream(parts), Some((remote, 1000L))).get
    assert(contents(got.bytes).sameElements(first ++ second))
    assert(w.copiedBytes == 1000 && w.inPlaceBytes == 0)
    assert(w.otherHostBytes == 1000)
    assert(tmm.getMemoryConsumptionForThisTask == ReduceFixture.MiB, "a staging buffer of 1 MiB")
    got.release()
  }

  @Test def anyOtherStreamIsCopiedToTheHeapWithinExecutionMemory(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val data = ReduceFixture.text(5000, 4)
    val got = w.of(blockId, new ByteArrayInputStream(data), Some((remote, 5000L))).get
    assert(contents(got.bytes).sameElements(data))
    assert(w.copiedBytes == 5000)
    assert(tmm.getMemoryConsumptionForThisTask == 5000, "the copy is execution memory")
    got.release()
    assert(tmm.getMemoryConsumptionForThisTask == 0)
  }

  @Test def aRangeOverTheLimitIsLeftToStream(): Unit = {
    val w = whole(ReduceFixture.taskMemory(16))
    val in = new ByteBufInputStream(Unpooled.wrappedBuffer(new Array[Byte](16)))
    assert(w.of(blockId, in, Some((remote, Limit + 1))).isEmpty)
  }

  @Test def aCopyMemoryDoesNotAllowIsLeftToStream(): Unit = {
    val w = whole(ReduceFixture.taskMemory(1))
    val data = new Array[Byte](2 << 20)
    assert(w.of(blockId, new ByteArrayInputStream(data), Some((remote, data.length))).isEmpty)
    assert(w.copiedBytes == 0)
  }

  @Test def aSmallSegmentOnThisHostIsReadFromTheFetchersFileLeftUnread(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val data = ReduceFixture.text(LocalRead, 5)
    val (fis, in) = fileSegment(data, LocalRead)
    try {
      val got = w.of(blockId, in, Some((here, LocalRead.toLong))).get
      assert(contents(got.bytes).sameElements(data))
      assert(w.fileReadBytes == LocalRead && w.mappedBytes == 0)
      assert(fis.getChannel.position() == 100, "the fetcher's stream is left where it was")
      assert(tmm.getMemoryConsumptionForThisTask == LocalRead)
      got.release()
      assert(tmm.getMemoryConsumptionForThisTask == 0)
    } finally fis.close()
  }

  @Test def aLargerSegmentOnThisHostIsMapped(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val data = ReduceFixture.text(LocalRead + 1, 6)
    val (fis, in) = fileSegment(data, data.length)
    try {
      val got = w.of(blockId, in, Some((here, data.length.toLong))).get
      assert(contents(got.bytes).sameElements(data))
      assert(w.mappedBytes == data.length && w.fileReadBytes == 0)
      assert(tmm.getMemoryConsumptionForThisTask == 0, "a mapping is not execution memory")
      got.release()
    } finally fis.close()
  }

  @Test def aFileShorterThanItsIndexSaysFailsNamingTheMissingBytes(): Unit = {
    val tmm = ReduceFixture.taskMemory(16)
    val w = whole(tmm)
    val (fis, in) = fileSegment(ReduceFixture.text(1000, 7), 1100)
    try {
      val e = assertThrows(classOf[EOFException], () => w.of(blockId, in, Some((here, 1100L))))
      assert(
        e.getMessage ==
          "The shuffle file ends 100 bytes before the end of the segment at offset 100 " +
          "(1100 bytes).",
        e.getMessage)
      assert(tmm.getMemoryConsumptionForThisTask == 0, "the copy's memory is given back")
    } finally fis.close()
  }

  @Test def aMergedChunkWithoutALocationIsTakenFromWhatItsStreamHolds(): Unit = {
    val w = whole(ReduceFixture.taskMemory(16))
    val data = ReduceFixture.text(2000, 8)
    val (fis, in) = fileSegment(data, data.length)
    try {
      assert(contents(w.of(blockId, in, None).get.bytes).sameElements(data))
      assert(w.fileReadBytes == 2000)
    } finally fis.close()
    val fetched = w.of(blockId, new ByteBufInputStream(Unpooled.wrappedBuffer(data)), None).get
    assert(contents(fetched.bytes).sameElements(data))
    assert(w.inPlaceBytes == 2000)
    assert(w.otherHostBytes == 2000, "a merged chunk's server may be anywhere")
  }
}
