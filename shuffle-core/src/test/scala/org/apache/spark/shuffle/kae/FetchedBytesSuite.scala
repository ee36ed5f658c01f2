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

import java.io.{ByteArrayInputStream, IOException}
import java.nio.ByteBuffer
import java.util.zip.{CheckedInputStream, CRC32C}

import io.netty.buffer.{ByteBufInputStream, Unpooled}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.network.buffer.{
  FileSegmentManagedBuffer,
  NettyManagedBuffer,
  NioManagedBuffer
}
import org.apache.spark.network.util.{MapConfigProvider, TransportConf}
import org.apache.spark.shuffle.kae.reader.FetchedBytes

/** The reader reaches Netty's buffers behind the streams Spark's fetcher hands out. */
class FetchedBytesSuite extends AnyFunSuite {
  private val bytes = Array.tabulate[Byte](300000)(i => (i * 31 + i / 7).toByte)

  private def contents(b: ByteBuffer): Array[Byte] = {
    val a = new Array[Byte](b.remaining())
    b.duplicate().get(a)
    a
  }

  test("one region is used in place, behind the checksum wrapper too") {
    val direct = Unpooled.directBuffer(bytes.length).writeBytes(bytes)
    direct.readerIndex(10)
    for (checked <- Seq(false, true)) {
      val managed = new NettyManagedBuffer(direct.retainedDuplicate())
      val in = if (checked) new CheckedInputStream(managed.createInputStream(), new CRC32C)
      else managed.createInputStream()
      FetchedBytes.of(in) match {
        case Some(FetchedBytes.Whole(b)) =>
          assert(b.isDirect)
          assert(b.remaining() == bytes.length - 10)
          assert(contents(b) sameElements bytes.drop(10))
          // The same memory, not a copy: a write through Netty shows in the view.
          direct.setByte(10, 77)
          assert(b.get(b.position()) == 77)
          direct.setByte(10, bytes(10))
        case other => fail(s"expected the buffer in place, got $other")
      }
      // The stream itself was left unread (Spark's checksum diagnosis reads it).
      assert(in.available() == bytes.length - 10)
      in.close()
      managed.release()
    }
    val nio = new NioManagedBuffer(ByteBuffer.wrap(bytes)).createInputStream()
    assert(FetchedBytes.of(nio).collect { case FetchedBytes.Whole(b) => contents(b) }
      .exists(_ sameElements bytes))
    assert(direct.release())
  }

  test("a range received in parts is gathered with one copy") {
    val composite = Unpooled.compositeBuffer()
    for (part <- bytes.grouped(65536)) {
      composite.addComponent(true, Unpooled.directBuffer(part.length).writeBytes(part))
    }
    val in = new CheckedInputStream(
      new ByteBufInputStream(composite.retainedDuplicate(), true),
      new CRC32C)
    FetchedBytes.of(in) match {
      case Some(p: FetchedBytes.Parts) =>
        assert(p.length == bytes.length)
        val dst = ByteBuffer.allocateDirect(p.length + 100)
        dst.position(50)
        p.copyTo(dst)
        dst.position(50).limit(50 + p.length)
        assert(contents(dst) sameElements bytes)
      case other => fail(s"expected parts, got $other")
    }
    in.close()
    assert(composite.release())
  }

  test("streams that are not Netty's are read as before") {
    assert(FetchedBytes.of(new ByteArrayInputStream(bytes)).isEmpty)
    assert(FetchedBytes.of(new CheckedInputStream(new ByteArrayInputStream(bytes), new CRC32C))
      .isEmpty)
  }

  test("a file cut short keeps its segments' indexed lengths, so reading one fails") {
    val file = java.nio.file.Files.createTempFile("kae-segment", ".data")
    try {
      java.nio.file.Files.write(file, bytes.take(20000))
      // Partly past the end of the file, and wholly past it.
      for (offset <- Seq(10000L, 30000L)) {
        val buffer = new FileSegmentManagedBuffer(
          new TransportConf("shuffle", MapConfigProvider.EMPTY),
          file.toFile,
          offset,
          50000)
        val opened =
          try Some(buffer.createInputStream())
          catch {
            // Some patch releases (4.0.4's skip through Guava) refuse a segment that starts past
            // the end of its file when the stream is made: reading fails there, with Spark's
            // own message.
            case e: IOException if offset > 20000 && e.getMessage.contains("actual file length") =>
              None
          }
        opened.foreach { in =>
          try {
            val Some((ch, at, length)) = FetchedBytes.fileSegment(in)
            assert(at == offset && length == 50000)
            assert(ch.read(ByteBuffer.allocate(length), at + 20000) < 0)
          } finally in.close()
        }
      }
    } finally java.nio.file.Files.delete(file)
  }

  test("a file segment's stream gives its file region, behind the checksum wrapper too") {
    val file = java.nio.file.Files.createTempFile("kae-segment", ".data")
    try {
      java.nio.file.Files.write(file, bytes)
      for (checked <- Seq(false, true)) {
        val managed = new FileSegmentManagedBuffer(
          new TransportConf("shuffle", MapConfigProvider.EMPTY),
          file.toFile,
          1000,
          50000)
        val in = if (checked) new CheckedInputStream(managed.createInputStream(), new CRC32C)
        else managed.createInputStream()
        try {
          val Some((ch, offset, length)) = FetchedBytes.fileSegment(in)
          assert(offset == 1000 && length == 50000)
          val m = ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, offset, length)
          assert(contents(m) sameElements bytes.slice(1000, 51000))
        } finally in.close()
      }
      // Other streams have no file region.
      assert(FetchedBytes.fileSegment(new ByteArrayInputStream(bytes)).isEmpty)
      assert(FetchedBytes.fileSegment(
        new NioManagedBuffer(ByteBuffer.wrap(bytes)).createInputStream()).isEmpty)
    } finally java.nio.file.Files.delete(file)
  }
}
