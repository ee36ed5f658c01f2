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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import io.github.kaeshuffle.codec.{CodecKind, CodecOptions, Codecs, KaeZipModel}
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{SparkConf, SparkContext}

class KaeShuffleConfSuite extends AnyFunSuite {
  import KaeShuffleConf._

  private def settingsOf(pairs: (String, String)*): KaeShuffleSettings =
    KaeShuffleSettings.read(new SparkConf(false).setAll(pairs))

  private def rejected(pairs: (String, String)*): String =
    intercept[IllegalArgumentException](settingsOf(pairs: _*)).getMessage

  test("defaults") {
    val s = settingsOf()
    assert(s.enabled)
    assert(s.codecOptions.codec.id == "auto")
    assert(s.blockSize == 256 * 1024)
    assert(s.codecOptions.kaezipLibrary == "/usr/local/kaezip/lib/libz.so")
    assert(!s.codecOptions.kaezipSkipHardwareCheck)
    assert(s.writerMaxMemory == 0 && s.writerInitialBuffer == 4096)
    assert(s.writerLargeBufferMemory == 16L * 1024 * 1024)
    assert(settingsOf(WRITER_LARGE_BUFFER_MEMORY.key -> "0").writerLargeBufferMemory == 0)
    assert(s.writerFrameMemory == 64L * 1024 * 1024)
    assert(settingsOf(WRITER_FRAME_MEMORY.key -> "0").writerFrameMemory == 0)
  }

  test("auto probes blocks for the software deflate codecs only, not for KAEzip nor lz4") {
    def probes(options: CodecOptions): Boolean =
      settingsOf().writerSettings(Codecs.exact(options)).probeIncompressible()
    assert(probes(CodecOptions.builder().codec(CodecKind.ZLIB).build()))
    assert(!probes(CodecOptions.builder().codec(CodecKind.LZ4).build()))
    assert(!probes(KaeZipModel.options()))
    val forced = settingsOf(WRITER_PROBE_INCOMPRESSIBLE.key -> "true")
    assert(forced.writerSettings(Codecs.exact(KaeZipModel.options())).probeIncompressible())
  }

  test("values are parsed") {
    val s = settingsOf(
      CODEC.key -> "ZSTD",
      LEVEL.key -> "19",
      BLOCK_SIZE.key -> "1m",
      ENABLED.key -> "false",
      LIBDEFLATE_LIBRARY.key -> "/opt/libdeflate.so")
    assert(s.codecOptions.codec.id == "zstd" && s.codecOptions.level == 19)
    assert(s.blockSize == 1024 * 1024 && !s.enabled)
    assert(s.codecOptions.libdeflateLibrary == "/opt/libdeflate.so")
  }

  test("every bad value is rejected with the key, the value and what is allowed") {
    val cases = Seq(
      Seq(CODEC.key -> "gzip") -> Seq(CODEC.key, "gzip", "kaezip", "libdeflate", "zstd"),
      Seq(LEVEL.key -> "0") -> Seq(LEVEL.key, "'0'", "1 to 9"),
      Seq(LEVEL.key -> "10") -> Seq(LEVEL.key, "'10'", "1 to 9"),
      Seq(CODEC.key -> "libdeflate", LEVEL.key -> "13") -> Seq(LEVEL.key, "1 to 12"),
      Seq(CODEC.key -> "zstd", LEVEL.key -> "23") -> Seq(LEVEL.key, "1 to 22"),
      Seq(CODEC.key -> "lz4", LEVEL.key -> "2") -> Seq(LEVEL.key, "1 to 1"),
      Seq(LEVEL.key -> "fast") -> Seq(LEVEL.key, "fast"),
      Seq(BLOCK_SIZE.key -> "8k") -> Seq(BLOCK_SIZE.key, "8192", "16k", "8m"),
      Seq(BLOCK_SIZE.key -> "9m") -> Seq(BLOCK_SIZE.key, "9437184", "16k", "8m"),
      Seq(BLOCK_SIZE.key -> "big") -> Seq(BLOCK_SIZE.key),
      Seq(ENABLED.key -> "maybe") -> Seq(ENABLED.key, "maybe"),
      Seq(KAEZIP_SKIP_HARDWARE_CHECK.key -> "yes please") -> Seq(KAEZIP_SKIP_HARDWARE_CHECK.key),
      Seq(KAEZIP_LIBRARY.key -> "") -> Seq(KAEZIP_LIBRARY.key),
      Seq(LIBDEFLATE_LIBRARY.key -> "") -> Seq(LIBDEFLATE_LIBRARY.key),
      Seq(STAGE_SUMMARY.key -> "2") -> Seq(STAGE_SUMMARY.key),
      Seq(WRITER_MAX_MEMORY.key -> "512k") -> Seq(WRITER_MAX_MEMORY.key, "524288", "1m"),
      Seq(WRITER_MAX_MEMORY.key -> "lots") -> Seq(WRITER_MAX_MEMORY.key),
      Seq(WRITER_INITIAL_BUFFER.key -> "100") -> Seq(WRITER_INITIAL_BUFFER.key, "1k"),
      Seq(WRITER_INITIAL_BUFFER.key -> "64k", BLOCK_SIZE.key -> "32k") ->
        Seq(WRITER_INITIAL_BUFFER.key, "65536", BLOCK_SIZE.key, "32768"),
      Seq(WRITER_LARGE_BUFFER_MEMORY.key -> "-1m") -> Seq(WRITER_LARGE_BUFFER_MEMORY.key),
      // Frames are kept in pages of 1 MiB: less than one page would keep none.
      Seq(WRITER_FRAME_MEMORY.key -> "512k") -> Seq(WRITER_FRAME_MEMORY.key, "1m"),
      // A bound under two blocks could never hold a full block with another partition's.
      Seq(WRITER_LARGE_BUFFER_MEMORY.key -> "4m", BLOCK_SIZE.key -> "4m") ->
        Seq(WRITER_LARGE_BUFFER_MEMORY.key, "'4m'", "two blocks", BLOCK_SIZE.key, "8388608"),
      // Decoded blocks in a file of the local dirs would be plaintext on disk.
      Seq(READER_WINDOW_KIND.key -> "mapped", "spark.io.encryption.enabled" -> "true") ->
        Seq(READER_WINDOW_KIND.key, "mapped", "spark.io.encryption.enabled", "direct")
    )
    for ((pairs, words) <- cases) {
      val message = rejected(pairs: _*)
      for (w <- words) {
        assert(message.contains(w), s"$pairs: '$w' missing from: $message")
      }
    }
  }

  test("a bad value stops the SparkContext from starting") {
    val conf = LocalSpark.conf().set(BLOCK_SIZE.key, "1k")
    // SparkEnv creates the manager by reflection: our exception is the cause of its own.
    val e = intercept[Exception](new SparkContext(conf))
    val ours = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null)
      .collectFirst { case i: IllegalArgumentException => i }
    assert(ours.exists(_.getMessage.contains(BLOCK_SIZE.key)), e)
    assert(SparkContext.getActive.isEmpty)
  }

  test("unknown keys under the prefix are found") {
    val conf = new SparkConf(false).set("spark.shuffle.kae.blocksize", "1m")
      .set(BLOCK_SIZE.key, "1m").set("spark.shuffle.compress", "true")
    assert(unknownKeys(conf) == Seq("spark.shuffle.kae.blocksize"))
  }

  test("docs/configuration.md is generated from the code") {
    val docs = Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs"), "configuration.md")
    val expected = ConfigurationPage.markdown
    if (sys.props.get("kae.docs.write").contains("true")) {
      Files.write(docs, expected.getBytes(StandardCharsets.UTF_8))
    }
    val actual = if (Files.exists(docs)) Files.readString(docs) else ""
    assert(actual == expected, s"$docs is out of date: regenerate it with the command it names")
    assert(all.map(_.key).forall(k => actual.contains(s"`$k`")))
  }
}
