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

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicBoolean

import io.github.kaeshuffle.codec.{BlockCodec, Codecs}
import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight
import io.github.kaeshuffle.format.BlockStats
import io.github.kaeshuffle.pool.{DecoderPool, EncoderPool}
import io.github.kaeshuffle.writer.{LadderEncoders, LinkCost}

import org.apache.spark.{ShuffleDependency, SparkConf, SparkContext, SparkEnv, TaskContext}
import org.apache.spark.shuffle._
import org.apache.spark.shuffle.api.ShuffleExecutorComponents
import org.apache.spark.shuffle.kae.metrics.ShuffleCounts
import org.apache.spark.shuffle.kae.reader.KaeShuffleReader
import org.apache.spark.shuffle.kae.writer.{
  KaeBlockShuffleWriter,
  KaeSortShuffleWriter,
  MapTask,
  WriteReport,
  WriterShims
}
import org.apache.spark.shuffle.sort.SortShuffleManager
import org.apache.spark.util.collection.OpenHashSet

/**
 * KAE Shuffle: a shuffle that hands the codec whole blocks (one call per block of
 * `spark.shuffle.kae.blockSize` raw bytes) instead of a stream of record-sized writes, with
 * KAEzip hardware deflate on Kunpeng when present.
 *
 * Files stay in Spark's layout (`shuffle_S_M_0.data` + `.index` + checksum file, committed by
 * Spark's index resolver), so Spark's block manager, external shuffle service, decommissioning and
 * Netty block transfer serve them unchanged. Each partition's bytes in `.data` are one segment of
 * frames (docs/block-format.md).
 *
 * With `spark.shuffle.kae.enabled` false, shuffles go to Spark's own sort shuffle, decided per
 * shuffle when it is registered and logged once. With `spark.io.encryption.enabled`, every frame
 * is encrypted with the application's IO key (docs/block-format.md). Push-based shuffle works as
 * with Spark's sort shuffle: Spark pushes our segments to the mergers, and the reader asks the map
 * output tracker for the merged chunks ([[ManagerShims]], docs/design.md).
 *
 * It extends Spark's [[SortShuffleManager]] for two reasons. Spark SQL copies every row before a
 * shuffle unless the manager `isInstanceOf[SortShuffleManager]`
 * (`ShuffleExchangeExec.needToCopyObjectsBeforeShuffle`, the only such test in Spark's core and SQL
 * from 3.5 to 4.2); our block writer serializes each record at once and keeps no reference, so
 * that copy is pure waste, and the sort writer buffers objects only where Spark's own sort shuffle
 * does too (map-side combine, a serializer that cannot relocate records), which SQL's exchanges
 * never ask for. And the fallback is simply the superclass, on the driver and on every executor,
 * so its files are cleaned by its own `unregisterShuffle` wherever they were written.
 *
 * All settings are read and checked here, when SparkEnv creates the manager on the driver and on
 * each executor; writers and readers get typed settings.
 */
private[spark] class KaeShuffleManager(conf: SparkConf) extends SortShuffleManager(conf) {

  // First: on a Spark line the jar is not built for, nothing below is safe to run. Nor may this
  // class's methods need a class of one Scala only (`<:<`, as `toMap` and `orNull` take it): the
  // JVM verifies them all before this line runs, and would fail there without saying why.
  SparkLine.check()

  private val settings = KaeShuffleSettings.read(conf)
  KaeShuffleConf.unknownKeys(conf).foreach { key =>
    logWarning(s"Unknown setting $key is ignored: KAE Shuffle settings are listed in " +
      "docs/configuration.md (keys are case-sensitive).")
  }

  // The operator sees at each JVM's start whether KAEzip will serve it, and why not: the CPU, the
  // devices, their permissions and queues, the library and one round trip (KaeZipPreflight).
  if (settings.enabled && settings.codecOptions.codec().mayUseHardware()) {
    KaeZipPreflight.logOnce(settings.codecOptions)
  }

  /** Map task ids per KAE shuffle, to delete their files when the shuffle is unregistered. */
  private val kaeMapIds = new ConcurrentHashMap[Int, OpenHashSet[Long]]()

  private val shims = ManagerShims.current
  DeploymentCheck.check(conf, shims)

  override val shuffleBlockResolver: IndexShuffleBlockResolver =
    shims.blockResolver(conf, kaeMapIds)

  private lazy val executorComponents: ShuffleExecutorComponents = {
    val components = ShuffleDataIOUtils.loadShuffleDataIO(conf).executor()
    val extra = new java.util.HashMap[String, String]()
    conf.getAllWithPrefix(ShuffleDataIOUtils.SHUFFLE_SPARK_CONF_PREFIX).foreach { case (k, v) =>
      extra.put(k, v)
    }
    components.initializeExecutor(conf.getAppId, SparkEnv.get.executorId, extra)
    components
  }

  /** The block codec of this JVM, chosen once (the choice and its reason are logged once). */
  private lazy val codec: BlockCodec = Codecs.select(settings.codecOptions).codec()
  private lazy val writerSettings = settings.writerSettings(codec)
  private lazy val readerSettings = settings.readerSettings(codec)

  /**
   * Spark's IO encryption key (`spark.io.encryption.enabled`), which every frame is encrypted
   * with; null without IO encryption. Asked for when the pools are made (executors get the key
   * from the driver when they register).
   */
  private def ioEncryptionKey: Array[Byte] =
    SparkEnv.get.securityManager.getIOEncryptionKey().getOrElse(null)

  /** The pools' hardware session bound, by default from this JVM's task slots. */
  private lazy val sessionBound = settings.sessionBound(shims.taskSlots(conf))

  /**
   * The executor's encoders, reused by its map tasks instead of one native compressor per task
   * (on KAEzip a session each, bounded by `kaezip.maxSessions`); twice the cores stay idle at most
   * per step of the codec ladder, which `auto` moves each shuffle along (CodecPolicy), measuring
   * the disk once through a file in a local directory (DiskProbe).
   */
  private lazy val encoders = {
    encodersMade.set(true)
    new LadderEncoders(
      Codecs.ladder(settings.codecOptions),
      (c: BlockCodec) =>
        new EncoderPool(
          c,
          writerSettings.probeIncompressible,
          writerSettings.hardwareMinBlock,
          2 * Runtime.getRuntime.availableProcessors(),
          sessionBound,
          ioEncryptionKey),
      link,
      () => WriterShims.current.newSpillFile(SparkEnv.get.blockManager)
    )
  }

  /**
   * What this executor's reduce tasks waited for the network, which `auto` prices its map tasks'
   * stored bytes with; fed by every reader, without making the encoders on an executor that only
   * reduces. On the driver, the executors' waits, for the broadcasts of KaeIoCodec (IoCodecLink).
   */
  private val link = new LinkCost()
  private val encodersMade = new AtomicBoolean(false)

  /** Encoders (so native compressors) this executor has made; for tests. */
  private[kae] def encodersCreated: Long = if (encodersMade.get) encoders.created() else 0L

  /**
   * The executor's decoders, reused by every reduce task and stream instead of one native
   * decompressor per fetched stream; twice the cores stay idle at most (a task's thread and its
   * decompress-ahead thread each hold one while they decode).
   */
  private lazy val decoders = {
    decodersMade.set(true)
    new DecoderPool(
      codec,
      2 * Runtime.getRuntime.availableProcessors(),
      sessionBound,
      ioEncryptionKey)
  }
  private val decodersMade = new AtomicBoolean(false)

  /** Decoders (so native decompressors per format) this executor has made; for tests. */
  private[kae] def decodersCreated: Long = if (decodersMade.get) decoders.created() else 0L

  private val observer = new ShuffleObserver(settings, conf)

  override def registerShuffle[K, V, C](
      shuffleId: Int,
      dependency: ShuffleDependency[K, V, C]): ShuffleHandle = {
    val sc = SparkContext.getActive
    KaeShuffleManager.fallbackReason(settings) match {
      case Some(reason) =>
        logInfo(s"Shuffle $shuffleId uses Spark's sort shuffle: $reason.")
        observer.fellBack(sc, shuffleId, reason)
        super.registerShuffle(shuffleId, dependency)
      case None =>
        val blockWriter = KaeShuffleManager.canUseBlockWriter(dependency)
        logInfo(s"Shuffle $shuffleId uses KAE Shuffle (${dependency.partitioner.numPartitions} " +
          s"partitions, serializer ${dependency.serializer.getClass.getSimpleName}, " +
          (if (blockWriter) "block writer" else "sort writer: " + sortWriterReason(dependency)) +
          ").")
        sc.foreach(IoCodecLink.listen(_, link))
        new KaeShuffleHandle(
          shuffleId,
          dependency,
          observer.kaeShuffle(sc),
          blockWriter)
    }
  }

  private def sortWriterReason(dep: ShuffleDependency[_, _, _]): String =
    if (dep.mapSideCombine) "map-side combine"
    else s"${dep.serializer.getClass.getSimpleName} cannot relocate serialized records"

  override def getWriter[K, V](
      handle: ShuffleHandle,
      mapId: Long,
      context: TaskContext,
      metrics: ShuffleWriteMetricsReporter): ShuffleWriter[K, V] = handle match {
    case h: KaeShuffleHandle[K @unchecked, V @unchecked, _] =>
      val ids = kaeMapIds.computeIfAbsent(h.shuffleId, _ => new OpenHashSet[Long](16))
      ids.synchronized { ids.add(mapId) }
      val onStats = (stats: BlockStats, written: WriteReport) =>
        observer.taskDone(h.metrics, ShuffleCounts.ofWrite(stats, written))
      val task = MapTask(
        mapId,
        context,
        metrics,
        executorComponents,
        writerSettings,
        encoders,
        SqlRowSerializerFields.dataSizeMetric(h.dependency.serializer),
        settings.doctor,
        onStats
      )
      if (h.blockWriter) new KaeBlockShuffleWriter(h.dependency, task)
      else new KaeSortShuffleWriter(h.dependency, task)
    case other =>
      super.getWriter(other, mapId, context, metrics)
  }

  override def getReader[K, C](
      handle: ShuffleHandle,
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int,
      context: TaskContext,
      metrics: ShuffleReadMetricsReporter): ShuffleReader[K, C] = handle match {
    case h: KaeShuffleHandle[K @unchecked, _, C @unchecked] =>
      val toRead = shims.blocksToRead(
        h.dependency,
        startMapIndex,
        endMapIndex,
        startPartition,
        endPartition)
      new KaeShuffleReader[K, C](
        h.dependency,
        toRead.blocks,
        context,
        metrics,
        readerSettings,
        decoders,
        (stats, sources) => {
          observer.taskDone(h.metrics, ShuffleCounts.ofRead(stats, sources))
          link.add(sources.fetchNanos, stats.storedBytes(), sources.otherHostBytes)
        },
        toRead.batchFetchAllowed && shims.canUseBatchFetch(startPartition, endPartition, context),
        SqlRowSerializerFields.rowFields(h.dependency.serializer),
        settings.doctor
      )
    case other =>
      super.getReader(
        other,
        startMapIndex,
        endMapIndex,
        startPartition,
        endPartition,
        context,
        metrics)
  }

  override def unregisterShuffle(shuffleId: Int): Boolean = {
    if (encodersMade.get) encoders.forget(shuffleId)
    Option(kaeMapIds.remove(shuffleId)).foreach { ids =>
      ids.synchronized {
        ids.iterator.foreach(id => shuffleBlockResolver.removeDataByMap(shuffleId, id))
      }
    }
    // Shuffles that fell back: Spark's sort shuffle deletes what it wrote in this JVM, if any.
    super.unregisterShuffle(shuffleId)
  }

  override def stop(): Unit = {
    IoCodecLink.forget(link)
    if (decodersMade.get) decoders.close()
    if (encodersMade.get) encoders.close()
    super.stop() // stops the block resolver
  }
}

private[spark] object KaeShuffleManager {

  /** Spark's own rule for its serialized shuffle: records movable as bytes, nothing to combine. */
  def canUseBlockWriter(dep: ShuffleDependency[_, _, _]): Boolean =
    dep.serializer.supportsRelocationOfSerializedObjects && !dep.mapSideCombine

  /** Why a shuffle registered now must use Spark's sort shuffle, if it must. */
  def fallbackReason(settings: KaeShuffleSettings): Option[String] =
    if (!settings.enabled) Some(s"${KaeShuffleConf.ENABLED.key}=false") else None
}
