package org.apache.spark.shuffle.kae

import org.apache.spark.internal.Logging
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter

/** What both map-side writers do with Spark's map output writer when writing fails. */
private[spark] object MapOutputs extends Logging {
  /**
   * Aborts `writer` after `cause`; a failure to abort is logged and attached to `cause` as
   * suppressed, never allowed to replace it.
   */
  def abortQuietly(writer: ShuffleMapOutputWriter, cause: Exception, shuffleId: Int,
      mapId: Long): Unit = {
    try {
      writer.abort(cause)
    } catch {
      case e: Exception =>
        cause.addSuppressed(e)
        logError(s"Failed to abort the map output of shuffle $shuffleId map $mapId", e)
    }
  }
}
