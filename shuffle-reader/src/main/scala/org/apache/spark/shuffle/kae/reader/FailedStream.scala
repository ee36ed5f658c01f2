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

import java.io.{InputStream, IOException}

/**
 * A fetched stream found bad before its first byte was decoded (a damaged frame header or index),
 * handed to Spark's fetcher in place of its decoded stream: the failure is raised on the first
 * read. Spark diagnoses a block by its checksum only when a read of the stream fails, not when
 * its stream wrapper does (for a block read from a file it then fails the fetch with no cause).
 * Closing it closes the fetched stream, as closing a decoded stream does.
 */
private[kae] final class FailedStream(failure: IOException, fetched: InputStream)
  extends InputStream {

  override def read(): Int = throw failure

  override def read(b: Array[Byte], off: Int, len: Int): Int = throw failure

  override def available(): Int = throw failure

  override def skip(n: Long): Long = throw failure

  override def close(): Unit = fetched.close()
}
