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
package org.apache.spark.shuffle.kae.suites

import org.apache.spark.io.{CompressionCodec, CompressionCodecSuite}
import org.apache.spark.shuffle.kae.KaeIoCodec

/**
 * Spark's own `CompressionCodecSuite` (its tests of Spark's codecs, which run as they are) and
 * its codec test, `testCodec`, run against [[KaeIoCodec]] made by Spark's factory, with each
 * software codec of ours in its blocks. Its concatenation test is private to Spark's suite;
 * `KaeIoCodecSuite` and `FrameStreamsTest` cover concatenated, truncated and damaged streams.
 */
class KaeCompressionCodecSuite extends CompressionCodecSuite {
  for (codec <- Seq("lz4", "zstd", "zlib", "libdeflate", "java", "auto")) {
    test(s"KaeIoCodec with $codec blocks: Spark's codec test") {
      val c = CompressionCodec.createCodec(
        conf.clone.set("spark.shuffle.kae.codec", codec),
        classOf[KaeIoCodec].getName)
      assert(c.isInstanceOf[KaeIoCodec])
      testCodec(c)
    }
  }
}
