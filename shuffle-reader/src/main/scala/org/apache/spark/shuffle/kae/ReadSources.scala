package org.apache.spark.shuffle.kae

/**
 * Where a reduce task's shuffle bytes came from, besides the decoding statistics.
 *
 * @param waitNanos time the deserializer waited for blocks decompressed ahead
 * @param mappedBytes segments on this host (this executor's, or host-local ones) read through a
 *     memory map
 * @param inPlaceBytes fetched ranges decoded where Netty received them
 * @param copiedBytes fetched ranges copied once before decoding (received in several parts)
 * @param fetchNanos the doctor's fetch link: time in Spark's fetcher, waiting for fetched blocks
 *     and opening them (exact; 0 when the doctor is off)
 * @param decodeNanos the doctor's decompress link as the task's thread sees it: time reading
 *     decoded bytes (decompressing inline, or waiting for blocks decompressed ahead; exact)
 * @param deserializeNanos the doctor's deserialization link (estimated from sampled records)
 */
private[spark] case class ReadSources(
    waitNanos: Long, mappedBytes: Long, inPlaceBytes: Long, copiedBytes: Long,
    fetchNanos: Long = 0L, decodeNanos: Long = 0L, deserializeNanos: Long = 0L)
