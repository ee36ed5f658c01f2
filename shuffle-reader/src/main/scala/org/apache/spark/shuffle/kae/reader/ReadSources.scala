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

/**
 * Where a reduce task's shuffle bytes came from, besides the decoding statistics.
 *
 * @param waitNanos time the deserializer waited for blocks decompressed ahead
 * @param mappedBytes segments on this host (this executor's, or host-local ones) read through a
 *     memory map
 * @param fileReadBytes small segments on this host read from their file into a heap copy
 * @param inPlaceBytes fetched ranges decoded where Netty received them
 * @param copiedBytes fetched ranges copied once before decoding (received in several parts)
 * @param otherHostBytes of the fetched ranges, those from another host: what crossed a link
 * @param fetchNanos time in Spark's fetcher, waiting for fetched blocks and opening them,
 *     measured whether the doctor is on or not, like the codec's time: with [[otherHostBytes]]
 *     it tells what the link costs (auto's codec choice); the doctor's fetch link
 * @param decodeNanos the doctor's decompress link as the task's thread sees it: time reading
 *     decoded bytes (decompressing inline, or waiting for blocks decompressed ahead; exact)
 * @param deserializeNanos the doctor's deserialization link (estimated from sampled records)
 */
private[spark] case class ReadSources(
    waitNanos: Long,
    mappedBytes: Long,
    fileReadBytes: Long,
    inPlaceBytes: Long,
    copiedBytes: Long,
    otherHostBytes: Long,
    fetchNanos: Long = 0L,
    decodeNanos: Long = 0L,
    deserializeNanos: Long = 0L)
