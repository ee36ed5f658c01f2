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
package writer

import java.io.IOException
import java.util.zip.Checksum

import org.apache.spark.{SparkEnv, TaskContext}
import org.apache.spark.internal.Logging
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter
import org.apache.spark.shuffle.checksum.ShuffleChecksumSupport

/** What both map-side writers do with Spark's map output writer: write, commit, or fail. */
private[spark] object MapOutputs extends Logging with ShuffleChecksumSupport {

  /**
   * The exception a task fails with when its map output could not be written or committed: an
   * I/O error gains which shuffle, map output and task attempt it hit (Spark shows it as the
   * task's failure reason); anything else is left as it is.
   */
  def failure(cause: Exception, shuffleId: Int, mapId: Long, context: TaskContext): Exception =
    cause match {
      case io: IOException =>
        new IOException(
          s"KAE Shuffle could not write the map output of shuffle $shuffleId " +
            s"(map $mapId, partition ${context.partitionId()}, attempt " +
            s"${context.attemptNumber()}); its partial output was discarded: ${io.getMessage}",
          io
        )
      case other => other
    }

  /**
   * Opens Spark's map output writer for the task's map output, with Spark's per-partition
   * checksums (over the bytes on disk, as its diagnosis of corrupt fetches expects), writes the
   * partitions with `writeAll`, then commits them with the checksums' values. On any failure the
   * output is aborted (a failure to abort is attached, never thrown instead) and the task fails
   * with the shuffle, map output and attempt named. Returns the partition lengths and the
   * nanoseconds the commit took (the doctor's disk link).
   */
  def writeAndCommit(task: MapTask, shuffleId: Int, numPartitions: Int)(
      writeAll: (ShuffleMapOutputWriter, Array[Checksum]) => Unit): (Array[Long], Long) = {
    val checksums = createPartitionChecksums(numPartitions, SparkEnv.get.conf)
    val writer =
      task.executorComponents.createMapOutputWriter(shuffleId, task.mapId, numPartitions)
    try {
      writeAll(writer, checksums)
      val t = System.nanoTime()
      val lengths = writer.commitAllPartitions(getChecksumValues(checksums)).getPartitionLengths
      (lengths, System.nanoTime() - t)
    } catch {
      case e: Exception =>
        abortQuietly(writer, e, shuffleId, task.mapId)
        throw failure(e, shuffleId, task.mapId, task.context)
    }
  }

  /**
   * Aborts `writer` after `cause`; a failure to abort is logged and attached to `cause` as
   * suppressed, never allowed to replace it.
   */
  def abortQuietly(
      writer: ShuffleMapOutputWriter,
      cause: Exception,
      shuffleId: Int,
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
