package org.apache.spark.shuffle.kae

/**
 * How fast a codec ran on reference data on some machine, for the doctor to print next to a
 * stage's own codec rate. Measured by the event-log command (`CodecRates`, kae-shuffle-doctor);
 * the runtime never measures.
 *
 * @param codec the codec and its level, as logged
 */
private[spark] case class ReferenceRates(codec: String, rawBytes: Long, storedBytes: Long,
    compressNanos: Long, decompressNanos: Long)
