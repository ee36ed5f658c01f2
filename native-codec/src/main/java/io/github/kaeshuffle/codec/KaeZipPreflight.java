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
package io.github.kaeshuffle.codec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator checks before turning KAEzip on, and what each executor logs when it starts with
 * {@code codec=kaezip} or {@code auto}: the CPU, the accelerator devices in {@code
 * /sys/class/uacce/hisi_zip*}, their device nodes and whether this user may open them (a YARN
 * executor runs as the submitting user), their free queues ({@code available_instances}), the
 * KAEzip library, and one round trip through it. The last line is the verdict: "hardware in use",
 * or why not. KAEzip falls back to software inside its own library when it finds no device, so the
 * round trip alone proves nothing: the engine is taken as in use only when a device's {@code
 * available_instances} drops while a session is open.
 *
 * <p>Run it as {@code java -cp kae-shuffle-<version>.jar io.github.kaeshuffle.codec.KaeZipPreflight
 * [--library PATH]}; exit status 0 when the hardware is in use, 1 when not.
 */
public final class KaeZipPreflight {
  private static final Logger LOG = LoggerFactory.getLogger(KaeZipPreflight.class);
  private static final Pattern IMPLEMENTER =
      Pattern.compile("(?m)^CPU implementer\\s*:\\s*(0x[0-9a-fA-F]+)");
  private static final Pattern PART = Pattern.compile("(?m)^CPU part\\s*:\\s*(0x[0-9a-fA-F]+)");
  private static final int ROUND_TRIP_BYTES = 1 << 20;
  private static final Map<CodecOptions, Report> REPORTS = new ConcurrentHashMap<>();

  /** One line of the report: what was checked, whether it passed, what was found. */
  public static final class Check {
    private final String what;
    private final boolean ok;
    private final String found;

    public Check(String what, boolean ok, String found) {
      this.what = what;
      this.ok = ok;
      this.found = found;
    }

    public String what() {
      return what;
    }

    public boolean ok() {
      return ok;
    }

    public String found() {
      return found;
    }

    @Override
    public String toString() {
      return (ok ? "[ok]   " : "[FAIL] ") + what + ": " + found;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Check)) {
        return false;
      }
      Check o = (Check) other;
      return Objects.equals(what, o.what) && ok == o.ok && Objects.equals(found, o.found);
    }

    @Override
    public int hashCode() {
      return Objects.hash(what, ok, found);
    }
  }

  /** Every check, in order, and the verdict. */
  public static final class Report {
    private final List<Check> checks;
    private final boolean hardwareInUse;
    private final String verdict;

    public Report(List<Check> checks, boolean hardwareInUse, String verdict) {
      this.checks = checks;
      this.hardwareInUse = hardwareInUse;
      this.verdict = verdict;
    }

    public List<Check> checks() {
      return checks;
    }

    public boolean hardwareInUse() {
      return hardwareInUse;
    }

    public String verdict() {
      return verdict;
    }

    /** The report as printed: one line per check, then the verdict. */
    public String text() {
      StringBuilder b = new StringBuilder();
      checks.forEach(c -> b.append(c).append('\n'));
      return b.append(verdict).toString();
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Report)) {
        return false;
      }
      Report o = (Report) other;
      return Objects.equals(checks, o.checks)
          && hardwareInUse == o.hardwareInUse
          && Objects.equals(verdict, o.verdict);
    }

    @Override
    public int hashCode() {
      return Objects.hash(checks, hardwareInUse, verdict);
    }
  }

  private final Path root;
  private final String osArch;
  private final String library;
  private final boolean skipHardwareCheck;
  private final Predicate<Path> mayOpen;
  private final List<Check> checks = new ArrayList<>();

  /** The {@code hisi_zip*} devices {@link #devices} found, sorted; their queues are watched. */
  private final List<Path> zips = new ArrayList<>();

  /**
   * @param root where {@code proc/}, {@code sys/} and {@code dev/} are read ("/" on a host; a
   *     directory tree in tests)
   * @param skipHardwareCheck load the library even without the hardware (stand-ins in tests)
   * @param mayOpen whether this user may read and write a device node
   */
  KaeZipPreflight(
      Path root,
      String osArch,
      String library,
      boolean skipHardwareCheck,
      Predicate<Path> mayOpen) {
    this.root = root;
    this.osArch = osArch;
    this.library = library;
    this.skipHardwareCheck = skipHardwareCheck;
    this.mayOpen = mayOpen;
  }

  /** The preflight of this host for the KAEzip library the options name. */
  public static Report run(CodecOptions o) {
    return new KaeZipPreflight(
            o.systemRoot(),
            System.getProperty("os.arch"),
            o.kaezipLibrary(),
            o.kaezipSkipHardwareCheck(),
            p -> Files.isReadable(p) && Files.isWritable(p))
        .report();
  }

  /**
   * This process's report for these options, made and logged (verdict and checks, at INFO) the
   * first time they are asked for, then remembered: its round trip opens a hardware session each
   * way, which the shuffle manager's later questions (the UI tab's verdict) must not repeat.
   */
  public static Report logOnce(CodecOptions o) {
    return REPORTS.computeIfAbsent(
        o,
        options -> {
          Report r = run(options);
          LOG.info("KAE Shuffle KAEzip preflight:\n{}", r.text());
          return r;
        });
  }

  Report report() {
    boolean hardware = cpu() & devices();
    if (!hardware && !skipHardwareCheck) {
      return verdict(false, "not in use: " + firstFailure());
    }
    CodecOptions o =
        CodecOptions.builder()
            .codec(CodecKind.KAEZIP)
            .kaezipLibrary(library)
            .kaezipSkipHardwareCheck(true)
            .systemRoot(root)
            .build();
    BlockCodec codec = load(o);
    if (codec == null) {
      return verdict(false, "not in use: " + firstFailure());
    }
    return roundTrip(codec, hardware);
  }

  private Report verdict(boolean inUse, String text) {
    return new Report(
        Collections.unmodifiableList(new ArrayList<>(checks)), inUse, "KAEzip verdict: " + text);
  }

  private String firstFailure() {
    return checks.stream()
        .filter(c -> !c.ok())
        .findFirst()
        .map(c -> c.what() + ": " + c.found())
        .orElse("unknown");
  }

  private void add(String what, boolean ok, String found) {
    checks.add(new Check(what, ok, found));
  }

  /** Architecture and CPU model: KAEzip is on HiSilicon Kunpeng (implementer 0x48) only. */
  private boolean cpu() {
    String arch = NativeLoader.arch(osArch);
    if (!"aarch64".equals(arch)) {
      add("CPU", false, "architecture " + osArch + ", not aarch64 (Kunpeng)");
      return false;
    }
    Path cpuinfo = root.resolve("proc/cpuinfo");
    String text;
    try {
      text = new String(Files.readAllBytes(cpuinfo), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      add("CPU", false, "cannot read " + cpuinfo + ": " + e.getMessage());
      return false;
    }
    String implementer = first(IMPLEMENTER, text);
    String part = first(PART, text);
    String model =
        "implementer "
            + implementer
            + ", part "
            + part
            + ("0xd01".equals(part) ? " (Kunpeng 920)" : "");
    boolean hisilicon = "0x48".equalsIgnoreCase(implementer);
    add(
        "CPU",
        hisilicon,
        hisilicon ? "HiSilicon, " + model : model + ": not a HiSilicon CPU (0x48)");
    return hisilicon;
  }

  private static String first(Pattern p, String text) {
    Matcher m = p.matcher(text);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "unknown";
  }

  /**
   * The accelerators, their device nodes, this user's access and their free queues; true when at
   * least one can be used.
   */
  private boolean devices() {
    Path uacce = root.resolve("sys/class/uacce");
    if (Files.isDirectory(uacce)) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(uacce, "hisi_zip*")) {
        ds.forEach(zips::add);
      } catch (IOException e) {
        add("devices", false, "cannot list " + uacce + ": " + e.getMessage());
        return false;
      }
    }
    if (zips.isEmpty()) {
      add("devices", false, "no " + uacce + "/hisi_zip*: is the hisi_zip driver loaded?");
      return false;
    }
    zips.sort(null);
    add("devices", true, zips.size() + " (" + names(zips) + ")");
    boolean usable = false;
    for (Path zip : zips) {
      usable |= device(zip);
    }
    return usable;
  }

  private boolean device(Path zip) {
    String name = zip.getFileName().toString();
    Path node = root.resolve("dev").resolve(name);
    if (!Files.exists(node)) {
      add(name + " node", false, node + " does not exist");
      return false;
    }
    boolean access = mayOpen.test(node);
    add(
        name + " node",
        access,
        access
            ? node + " readable and writable by " + System.getProperty("user.name")
            : node
                + " not readable and writable by "
                + System.getProperty("user.name")
                + ": grant the executors' users access (see docs/yarn.md)");
    OptionalLong free = availableInstances(zip);
    boolean queues = free.isPresent() && free.getAsLong() > 0;
    add(
        name + " queues",
        queues,
        !free.isPresent()
            ? "no available_instances attribute"
            : free.getAsLong() + " available_instances" + (queues ? "" : ": every queue is taken"));
    return access && queues;
  }

  private OptionalLong availableInstances(Path zip) {
    for (String rel : new String[] {"attrs/available_instances", "available_instances"}) {
      try {
        return OptionalLong.of(
            Long.parseLong(
                new String(Files.readAllBytes(zip.resolve(rel)), StandardCharsets.UTF_8).trim()));
      } catch (IOException | NumberFormatException e) {
        // try the other place; older kernels keep it at the top
      }
    }
    return OptionalLong.empty();
  }

  private static String names(List<Path> paths) {
    return String.join(
        ", ", paths.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList()));
  }

  private BlockCodec load(CodecOptions o) {
    try {
      BlockCodec codec = Codecs.exact(o);
      add("library", true, library + " loaded [" + codec.description() + "]");
      return codec;
    } catch (CodecException e) {
      add("library", false, e.getMessage());
      return null;
    }
  }

  /**
   * Compresses and decompresses 1 MiB through the library, checks the bytes and that software zlib
   * reads them, and watches the free queues while the session is open.
   */
  private Report roundTrip(BlockCodec codec, boolean hardware) {
    long before = freeQueues();
    byte[] raw = sample();
    long during;
    try (BlockCompressor c = codec.newCompressor();
        BlockDecompressor d = codec.newDecompressor();
        BlockDecompressor z = Codecs.software(CodecFormat.DEFLATE).newDecompressor()) {
      during = freeQueues();
      byte[] packed = new byte[codec.maxCompressedLength(raw.length)];
      int n = c.compress(raw, 0, raw.length, packed, 0, packed.length);
      byte[] back = new byte[raw.length];
      d.decompress(packed, 0, n, back, 0, raw.length);
      byte[] soft = new byte[raw.length];
      z.decompress(packed, 0, n, soft, 0, raw.length);
      boolean same = Arrays.equals(raw, back) && Arrays.equals(raw, soft);
      add(
          "round trip",
          same,
          raw.length
              + " bytes -> "
              + n
              + (same ? ", decompressed back, and software zlib reads them" : ": bytes differ"));
      if (!same) {
        return verdict(false, "not in use: the round trip gave different bytes");
      }
    } catch (CodecException e) {
      add("round trip", false, e.getMessage());
      return verdict(false, "not in use: " + firstFailure());
    }
    boolean took = before >= 0 && during >= 0 && during < before;
    add(
        "hardware queues",
        took,
        before < 0
            ? "no available_instances to watch"
            : "available_instances " + before + " -> " + during + " while a session was open");
    if (took && hardware) {
      return verdict(true, "hardware in use (" + library + ")");
    }
    return verdict(
        false,
        "not confirmed: the library works, but no hardware queue was taken while a session was"
            + " open"
            + (hardware ? "" : " (hardware check skipped: a stand-in library?)"));
  }

  /** Free queues over the devices found, or -1 when none reports them. */
  private long freeQueues() {
    long total = -1;
    for (Path zip : zips) {
      OptionalLong n = availableInstances(zip);
      if (n.isPresent()) {
        total = Math.max(total, 0) + n.getAsLong();
      }
    }
    return total;
  }

  /** 1 MiB of text-like bytes: compressible, as shuffle data mostly is. */
  private static byte[] sample() {
    byte[] b = new byte[ROUND_TRIP_BYTES];
    String words = "kae shuffle preflight round trip through the engine ";
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) words.charAt((i * 7 + i / 97) % words.length());
    }
    return b;
  }

  /** The command: prints the report, exits 0 when the hardware is in use, else 1. */
  public static void main(String[] args) {
    CodecOptions.Builder o = CodecOptions.builder().codec(CodecKind.KAEZIP);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--library":
          o.kaezipLibrary(value(args, ++i));
          break;
        case "--skip-hardware-check":
          o.kaezipSkipHardwareCheck(true);
          break;
        case "--root":
          o.systemRoot(Paths.get(value(args, ++i)));
          break;
        default:
          System.err.println(
              "Usage: KaeZipPreflight [--library PATH] [--root DIR] [--skip-hardware-check]\n"
                  + "Unknown argument: "
                  + args[i]);
          System.exit(2);
      }
    }
    Report r = run(o.build());
    System.out.println(r.text());
    System.exit(r.hardwareInUse() ? 0 : 1);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      System.err.println(args[i - 1] + " needs a value");
      System.exit(2);
    }
    return args[i];
  }
}
