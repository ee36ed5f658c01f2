package org.apache.spark.shuffle.kae

/**
 * The sums of one stage attempt's successful tasks.
 *
 * @param runNanos the tasks' run time (Spark's executorRunTime)
 * @param readBytes shuffle bytes fetched (Spark's shuffle read metrics)
 * @param writeBytes shuffle bytes written (Spark's shuffle write metrics)
 * @param kae KAE Shuffle's accumulators (`kae.shuffle.*`)
 */
private[spark] case class StageTotals(
    stageId: Int,
    attempt: Int,
    name: String,
    tasks: Int,
    runNanos: Long,
    readBytes: Long,
    writeBytes: Long,
    kae: Map[String, Long]) {

  def +(o: StageTotals): StageTotals = copy(tasks = tasks + o.tasks,
    runNanos = runNanos + o.runNanos, readBytes = readBytes + o.readBytes,
    writeBytes = writeBytes + o.writeBytes, kae = KaeStageSummaryListener.add(kae, o.kae))
}
