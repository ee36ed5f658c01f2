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
package io.github.kaeshuffle.bench;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.BlockCompressor;
import io.github.kaeshuffle.codec.BlockDecompressor;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight;
import io.github.kaeshuffle.codec.kaezip.KaeZipReport;
import io.github.kaeshuffle.workloads.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializationStream;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Block codec throughput on real shuffle bytes: the {@code sort} and {@code lda-edges} records of
 * docs/workloads.md serialized by Spark's KryoSerializer exactly as a shuffle writer would, cut
 * into blocks, compressed and decompressed one call per block by every backend, at several block
 * sizes; plus zlib's own C throughput on the same bytes (zlib_throughput.c), so the cost of JNI and
 * the Java side shows. Backends alternate within each repetition (A B C A B C ...); the first
 * repetition is a warm-up that also checks every decompressed block. Median MB/s of raw bytes.
 *
 * <p>Run (docs/benchmarks/README.md): {@code mvn -B -pl integration-tests -am -Pbench-codec verify}
 */
public final class CodecBenchmark {
  private static final int[] BLOCK_SIZES = {64 * 1024, 256 * 1024, 1024 * 1024};

  private CodecBenchmark() {}

  private record Result(double compressMBps, double decompressMBps, double ratio) {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/benchmarks/CodecBenchmark-results.md");
    int mib = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path work = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "bench"));
    Path driver = buildDriver(work);

    Map<String, byte[]> datasets = new LinkedHashMap<>();
    datasets.put("sort", kryo(sortRecords(), mib));
    datasets.put("lda-edges", kryo(ldaRecords(), mib));

    List<String> names =
        new ArrayList<>(
            List.of(
                CodecKind.ZLIB.id(),
                CodecKind.LIBDEFLATE.id(),
                CodecKind.JAVA.id(),
                CodecKind.LZ4.id(),
                CodecKind.ZSTD.id()));
    KaeZipReport kae =
        KaeZipPreflight.logOnce(CodecOptions.builder().codec(CodecKind.KAEZIP).build());
    if (kae.hardwareInUse()) {
      names.add(0, CodecKind.KAEZIP.id());
    }

    StringBuilder md = new StringBuilder();
    md.append("# Block codec throughput\n\n");
    md.append("Produced by `mvn -B -pl integration-tests -am -Pbench-codec verify` (class `")
        .append(CodecBenchmark.class.getName())
        .append("`), ")
        .append(mib)
        .append(" MiB of Kryo-serialized records per workload, ")
        .append(reps)
        .append(
            " timed repetitions after one warm-up, backends alternating; median MB/s of raw"
                + " (uncompressed) bytes, 1 MB = 10^6 bytes. One codec call per block, byte[] buffers,"
                + " level 1 for every leveled codec. Ratio = raw / compressed payload bytes.\n\n");
    md.append(MachineInfo.describe()).append('\n');
    md.append("KAEzip: ")
        .append(kae.hardwareInUse() ? "measured" : "not measured (" + kae.verdict() + ")")
        .append(".\n\n");
    md.append(
        "`zlib (C)` is zlib driven from C the same way (deflateReset + one deflate per"
            + " block), no JVM: `zlib / zlib (C)` is what the JNI path keeps of zlib's own speed.\n\n");
    for (Map.Entry<String, byte[]> ds : datasets.entrySet()) {
      Path file = work.resolve(ds.getKey() + ".bin");
      Files.write(file, ds.getValue());
      md.append("## ")
          .append(ds.getKey())
          .append(" (")
          .append(ds.getValue().length)
          .append(" bytes)\n\n");
      md.append(
          "| block | backend | compress MB/s | decompress MB/s | ratio |"
              + " compress vs zlib (C) | decompress vs zlib (C) |\n");
      md.append("|---|---|---:|---:|---:|---:|---:|\n");
      for (int block : BLOCK_SIZES) {
        Map<String, Result> results = measure(names, ds.getValue(), block, reps);
        String[] c =
            MachineInfo.run(
                    driver.toString(),
                    file.toString(),
                    Integer.toString(block),
                    "1",
                    Integer.toString(reps))
                .split(" ");
        Result cz =
            new Result(
                Double.parseDouble(c[0]),
                Double.parseDouble(c[1]),
                ds.getValue().length / Double.parseDouble(c[2]));
        results.put("zlib (C)", cz);
        for (Map.Entry<String, Result> e : results.entrySet()) {
          Result r = e.getValue();
          md.append(
              String.format(
                  "| %d KiB | %s | %.1f | %.1f | %.3f | %.2f | %.2f |%n",
                  block / 1024,
                  e.getKey(),
                  r.compressMBps(),
                  r.decompressMBps(),
                  r.ratio(),
                  r.compressMBps() / cz.compressMBps(),
                  r.decompressMBps() / cz.decompressMBps()));
        }
        System.out.println(ds.getKey() + " " + block / 1024 + " KiB done");
      }
      md.append('\n');
    }
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, md);
    System.out.println(md);
    System.out.println("Wrote " + out.toAbsolutePath());
  }

  private static Map<String, Result> measure(List<String> names, byte[] data, int block, int reps)
      throws CodecException {
    int blocks = (data.length + block - 1) / block;
    Map<String, double[][]> times = new LinkedHashMap<>();
    Map<String, Long> stored = new LinkedHashMap<>();
    for (String name : names) {
      times.put(name, new double[2][reps]);
    }
    byte[] back = new byte[block];
    for (int rep = -1; rep < reps; rep++) {
      for (String name : names) {
        BlockCodec codec = Codecs.exact(CodecOptions.builder().codec(name).build());
        int bound = codec.maxCompressedLength(block);
        byte[] z = new byte[blocks * bound];
        int[] sizes = new int[blocks];
        long total = 0;
        try (BlockCompressor comp = codec.newCompressor();
            BlockDecompressor dec = codec.newDecompressor()) {
          long t0 = System.nanoTime();
          for (int b = 0; b < blocks; b++) {
            int len = Math.min(block, data.length - b * block);
            sizes[b] = comp.compress(data, b * block, len, z, b * bound, bound);
            total += sizes[b];
          }
          long t1 = System.nanoTime();
          for (int b = 0; b < blocks; b++) {
            int len = Math.min(block, data.length - b * block);
            dec.decompress(z, b * bound, sizes[b], back, 0, len);
            if (rep < 0 && !Arrays.equals(back, 0, len, data, b * block, b * block + len)) {
              throw new IllegalStateException(name + " returned wrong bytes for block " + b);
            }
          }
          long t2 = System.nanoTime();
          if (rep >= 0) {
            times.get(name)[0][rep] = (t1 - t0) / 1e9;
            times.get(name)[1][rep] = (t2 - t1) / 1e9;
          }
        }
        stored.put(name, total);
      }
    }
    Map<String, Result> out = new LinkedHashMap<>();
    double mb = data.length / 1e6;
    for (String name : names) {
      double[][] t = times.get(name);
      out.put(
          name,
          new Result(
              mb / median(t[0]), mb / median(t[1]), data.length / (double) stored.get(name)));
    }
    return out;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** Serializes records with Spark's KryoSerializer, key then value, until {@code mib} MiB. */
  private static byte[] kryo(Iterator<? extends Tuple2<?, ?>> records, int mib) throws IOException {
    ClassTag<Object> any = ClassTag$.MODULE$.Any();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(mib << 20);
    SerializationStream s =
        new KryoSerializer(new SparkConf(false)).newInstance().serializeStream(bytes);
    while (bytes.size() < (mib << 20) && records.hasNext()) {
      Tuple2<?, ?> r = records.next();
      s.writeKey(r._1(), any);
      s.writeValue(r._2(), any);
    }
    s.close();
    return bytes.toByteArray();
  }

  private static Iterator<Tuple2<String, String>> sortRecords() {
    return Workloads.sort(1, 0, Integer.MAX_VALUE);
  }

  private static Iterator<? extends Tuple2<?, ?>> ldaRecords() {
    return Workloads.ldaEdges(1, 0, Integer.MAX_VALUE);
  }

  private static Path buildDriver(Path work) throws IOException, InterruptedException {
    Path src = Path.of("src/test/native/zlib_throughput.c").toAbsolutePath();
    Path exe = work.resolve("zlib_throughput");
    Process p =
        new ProcessBuilder("gcc", "-O2", "-o", exe.toString(), src.toString(), "-lz")
            .inheritIO()
            .start();
    if (p.waitFor() != 0) {
      throw new IOException("gcc failed to build " + src);
    }
    return exe;
  }
}
