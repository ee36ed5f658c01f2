package org.apache.spark.shuffle.kae

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.util.Locale
import java.util.concurrent.ConcurrentHashMap

import scala.util.Random

import io.github.kaeshuffle.codec.{CodecOptions, Codecs}

/**
 * The shuffle doctor (docs/tuning.md): reads the link times KAE Shuffle measures in every task and
 * says, per stage, which link of the chain bounds it and what a faster codec or disk could save.
 *
 * The model: a task's thread does its links one after the other (a map task produces a record
 * upstream, serializes it into a block buffer; each full block goes to the codec; the output goes
 * to disk. A reduce task waits for fetched blocks, reads decoded bytes, deserializes records,
 * and computes). So the task's time is the sum of its links, and making one link k times faster
 * saves at most (1 - 1/k) of that link's share (Amdahl). Decompressing ahead runs on another
 * thread: only the time the task's thread waits for it, or decodes inline, is on its path.
 */
private[spark] object ShuffleDoctor {
  val Serialization = "serialization"
  val Compress = "compress"
  val DiskWrite = "disk write"
  val Fetch = "fetch"
  val Decompress = "decompress"
  val Deserialization = "deserialization"
  val Other = "compute and other"

  /** Every link in the order they are shown (map links, reduce links, the rest). */
  val Links: Seq[String] =
    Seq(Fetch, Decompress, Deserialization, Serialization, Compress, DiskWrite, Other)

  /** Whether a stage's totals carry link times (the doctor was on in its tasks). */
  def measured(t: StageTotals): Boolean = {
    import KaeShuffleMetrics._
    Seq(WriteSerializeNanos, WriteDiskNanos, ReadFetchNanos, ReadDecodeNanos,
      ReadDeserializeNanos).exists(t.kae.getOrElse(_, 0L) > 0)
  }

  /** The diagnosis of one stage, if its tasks measured link times. */
  def diagnose(t: StageTotals, rates: Option[CodecRates.Rates]): Option[Diagnosis] = {
    import KaeShuffleMetrics._
    if (!measured(t)) return None
    val k = t.kae.withDefaultValue(0L)
    val wrote = k(WriteRawBytes) > 0 || k(WriteCodecCalls) > 0
    val read = k(ReadRawBytes) > 0 || k(ReadFetchNanos) > 0
    val links = Seq(
      Link(Fetch, k(ReadFetchNanos), t.readBytes),
      Link(Decompress, k(ReadDecodeNanos), k(ReadRawBytes)),
      Link(Deserialization, k(ReadDeserializeNanos), k(ReadRawBytes)),
      Link(Serialization, k(WriteSerializeNanos), k(WriteRawBytes)),
      Link(Compress, k(WriteCodecNanos), k(WriteRawBytes)),
      Link(DiskWrite, k(WriteDiskNanos), t.writeBytes))
      .filter(l => if (Set(Fetch, Decompress, Deserialization)(l.name)) read else wrote)
    val measuredNanos = links.map(_.nanos).sum
    Some(Diagnosis(t, links, math.max(0L, t.runNanos - measuredNanos), rates,
      k(ReadCodecNanos)))
  }

  private[kae] def mbPerSec(bytes: Long, nanos: Long): String =
    if (nanos <= 0 || bytes <= 0) "-"
    else String.format(Locale.ROOT, "%.1f MB/s", bytes * 1e3 / nanos)

  private[kae] def pct(v: Double): String = String.format(Locale.ROOT, "%.0f%%", v * 100)

  private[kae] def seconds(nanos: Long): String =
    String.format(Locale.ROOT, "%.2f s", nanos / 1e9)
}

/** One link: the task threads' time in it, summed over a stage's tasks, and the bytes it moved. */
private[spark] case class Link(name: String, nanos: Long, bytes: Long)

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

/**
 * Which link bounds a stage and by how much.
 *
 * @param other the tasks' time outside the measured links: upstream computation (reading input,
 *     user functions), aggregation and sorting, the task's overhead
 * @param decompressorNanos time in the codec on decompress-ahead threads (off the tasks' path)
 */
private[spark] case class Diagnosis(
    totals: StageTotals,
    links: Seq[Link],
    other: Long,
    rates: Option[CodecRates.Rates],
    decompressorNanos: Long) {
  import ShuffleDoctor._

  /** Every link with "compute and other" last. */
  def all: Seq[Link] = links :+ Link(Other, other, 0L)

  /** The whole the shares are of: the run time, or the measured links if they exceed it. */
  def total: Long = math.max(1L, math.max(totals.runNanos, links.map(_.nanos).sum))

  def share(name: String): Double = all.find(_.name == name).map(_.nanos.toDouble / total)
    .getOrElse(0.0)

  def bound: Link = all.maxBy(_.nanos)

  def kind: String = {
    val names = links.map(_.name).toSet
    (names(Fetch), names(Compress)) match {
      case (true, true) => "reduce and map"
      case (true, false) => "reduce"
      case _ => "map"
    }
  }

  /** The largest share a codec twice as fast could save: half its share on the tasks' path. */
  def codecTwiceAsFast: Double = (share(Compress) + share(Decompress)) / 2

  /** The largest share a disk twice as fast could save. */
  def diskTwiceAsFast: Double = share(DiskWrite) / 2

  def line: String = {
    val t = totals
    val shares = all.filter(_.nanos > 0).sortBy(-_.nanos)
      .map(l => s"${l.name} ${pct(l.nanos.toDouble / total)}").mkString(", ")
    val b = bound
    val rateText = links.filter(l => l.bytes > 0 && l.nanos > 0)
      .map(l => s"${l.name} ${mbPerSec(l.bytes, l.nanos)}").mkString(", ")
    // The study's "data processing rate": records produced (computed and serialized) per second.
    // In a map stage only: elsewhere "other" also holds the reduce side's computing.
    val production = links.find(_.name == Serialization).filter(_.bytes > 0 && kind == "map")
      .map(s => "; records produced (compute and serialization) at " +
        mbPerSec(s.bytes, s.nanos + other)).getOrElse("")
    val known = rates.map(r => s" (${r.codec} on this machine: compress " +
      s"${mbPerSec(r.rawBytes, r.compressNanos)}, decompress " +
      s"${mbPerSec(r.rawBytes, r.decompressNanos)} on reference data, ratio " +
      s"${String.format(Locale.ROOT, "%.1f", r.rawBytes.toDouble / math.max(1L, r.storedBytes))})")
      .getOrElse("")
    val ahead = if (decompressorNanos > 0) {
      s"; decompressing ahead took ${seconds(decompressorNanos)} on other threads"
    } else ""
    s"KAE Shuffle doctor: stage ${t.stageId}.${t.attempt} (${kind}, ${t.tasks} tasks, " +
      s"${seconds(t.runNanos)} task time): $shares -> bound by ${b.name}; a codec twice as fast " +
      s"saves at most ${pct(codecTwiceAsFast)}, a disk twice as fast at most " +
      s"${pct(diskTwiceAsFast)}. Rates per task thread: $rateText$known$production$ahead."
  }
}

/** How fast a codec runs on this machine, measured once per JVM on fixed reference data. */
private[spark] object CodecRates {
  /** Bytes compressed and decompressed per measure, in blocks of 256 KiB. */
  private val Size = 4 << 20
  private val Block = 256 << 10

  case class Rates(codec: String, rawBytes: Long, storedBytes: Long, compressNanos: Long,
      decompressNanos: Long)

  private val cache = new ConcurrentHashMap[CodecOptions, Rates]()

  /**
   * Reference data like typical shuffle records: a key, two words of a small vocabulary and a
   * count, as text, with a fixed seed.
   */
  private lazy val reference: Array[Byte] = {
    val r = new Random(20261122L)
    val words = Array.tabulate(512)(i => s"w${Integer.toString(i * 7919, 36)}")
    val sb = new java.lang.StringBuilder(Size + 64)
    while (sb.length < Size) {
      sb.append("key-").append(r.nextInt(50000)).append('\t')
        .append(words(r.nextInt(words.length))).append(' ')
        .append(words(r.nextInt(words.length))).append('\t')
        .append(r.nextInt(1000)).append('\n')
    }
    sb.toString.substring(0, Size).getBytes(StandardCharsets.US_ASCII)
  }

  /** The rates of the codec these options select (measured once per JVM). */
  def of(options: CodecOptions): Rates = cache.computeIfAbsent(options, o => measure(o))

  private def measure(options: CodecOptions): Rates = {
    val codec = Codecs.select(options).codec()
    val src = ByteBuffer.allocateDirect(Size)
    src.put(reference).flip()
    val bound = codec.maxCompressedLength(Block)
    val packed = ByteBuffer.allocateDirect((Size / Block) * bound)
    val lengths = new Array[Int](Size / Block)
    val out = ByteBuffer.allocateDirect(Block)
    val c = codec.newCompressor()
    val d = codec.newDecompressor()
    try {
      def compressAll(): Long = {
        val t0 = System.nanoTime()
        for (i <- lengths.indices) {
          val in = src.duplicate()
          in.position(i * Block).limit((i + 1) * Block)
          val dst = packed.duplicate()
          dst.position(i * bound).limit((i + 1) * bound)
          lengths(i) = c.compress(in, dst)
        }
        System.nanoTime() - t0
      }
      def decompressAll(): Long = {
        val t0 = System.nanoTime()
        for (i <- lengths.indices) {
          val in = packed.duplicate()
          in.position(i * bound).limit(i * bound + lengths(i))
          out.clear()
          d.decompress(in, out, Block)
        }
        System.nanoTime() - t0
      }
      compressAll() // warm-up: JIT, the library's first calls
      decompressAll()
      Rates(s"${codec.name()} level ${codec.level()}", Size, lengths.map(_.toLong).sum,
        compressAll(), decompressAll())
    } finally {
      c.close()
      d.close()
    }
  }
}
