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
package io.github.kaeshuffle.codec.kaezip;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CodecOptions;
import io.github.kaeshuffle.codec.Codecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an operator checks before turning KAEzip on, and what each executor logs when it starts with
 * {@code codec=kaezip} or {@code auto}: the CPU, the accelerator devices in {@code
 * /sys/class/uacce/hisi_zip*}, their device nodes and whether this user may open them (a YARN
 * executor runs as the submitting user), their free queues ({@code available_instances}), the
 * KAEzip library, and one round trip through it ({@link KaeZipRoundTrip}). The last line of the
 * {@link KaeZipReport} is the verdict: "hardware in use", or why not.
 *
 * <p>Run it as {@code java -cp kae-shuffle-spark<line>_<scala>-<version>.jar:<slf4j-api jar>
 * io.github.kaeshuffle.codec.kaezip.KaeZipPreflight [--library PATH]} (docs/yarn.md); exit status 0
 * when the hardware is in use, 1 when not, 2 for a bad argument.
 */
public final class KaeZipPreflight {
  private static final Logger LOG = LoggerFactory.getLogger(KaeZipPreflight.class);
  private static final Map<CodecOptions, KaeZipReport> REPORTS = new ConcurrentHashMap<>();

  private final KaeZipHost host;
  private final String library;
  private final boolean skipHardwareCheck;
  private final Predicate<Path> mayOpen;
  private final KaeZipReport.Builder report = new KaeZipReport.Builder();

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
    this.host = new KaeZipHost(root, osArch);
    this.library = library;
    this.skipHardwareCheck = skipHardwareCheck;
    this.mayOpen = mayOpen;
  }

  /** The preflight of this host for the KAEzip library the options name. */
  public static KaeZipReport run(CodecOptions o) {
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
  public static KaeZipReport logOnce(CodecOptions o) {
    return REPORTS.computeIfAbsent(
        o,
        options -> {
          KaeZipReport r = run(options);
          LOG.info("KAE Shuffle KAEzip preflight:\n{}", r.text());
          return r;
        });
  }

  KaeZipReport report() {
    boolean hardware = cpu() & devices();
    if (!hardware && !skipHardwareCheck) {
      return report.verdict(false, "not in use: " + report.firstFailure());
    }
    CodecOptions o =
        CodecOptions.builder()
            .codec(CodecKind.KAEZIP)
            .kaezipLibrary(library)
            .kaezipSkipHardwareCheck(true)
            .systemRoot(host.root())
            .build();
    BlockCodec codec = load(o);
    if (codec == null) {
      return report.verdict(false, "not in use: " + report.firstFailure());
    }
    return KaeZipRoundTrip.run(codec, library, zips, hardware, report);
  }

  /** Architecture and CPU model: KAEzip is on HiSilicon Kunpeng (implementer 0x48) only. */
  private boolean cpu() {
    if (!host.aarch64()) {
      report.add("CPU", false, "architecture " + host.osArch() + ", not aarch64 (Kunpeng)");
      return false;
    }
    String cpuinfo;
    try {
      cpuinfo = host.cpuinfo();
    } catch (IOException e) {
      report.add("CPU", false, "cannot read " + host.cpuinfoPath() + ": " + e.getMessage());
      return false;
    }
    String implementer = KaeZipHost.implementer(cpuinfo);
    String part = KaeZipHost.part(cpuinfo);
    String model =
        "implementer "
            + implementer
            + ", part "
            + part
            + ("0xd01".equals(part) ? " (Kunpeng 920)" : "");
    boolean hisilicon = KaeZipHost.HISILICON.equals(implementer);
    report.add(
        "CPU",
        hisilicon,
        hisilicon ? "HiSilicon, " + model : model + ": not a HiSilicon CPU (0x48)");
    return hisilicon;
  }

  /**
   * The accelerators, their device nodes, this user's access and their free queues; true when at
   * least one can be used.
   */
  private boolean devices() {
    try {
      zips.addAll(host.zipDevices());
    } catch (IOException e) {
      report.add("devices", false, "cannot list " + host.uacce() + ": " + e.getMessage());
      return false;
    }
    if (zips.isEmpty()) {
      report.add(
          "devices", false, "no " + host.uacce() + "/hisi_zip*: is the hisi_zip driver loaded?");
      return false;
    }
    report.add("devices", true, zips.size() + " (" + names(zips) + ")");
    boolean usable = false;
    for (Path zip : zips) {
      usable |= device(zip);
    }
    return usable;
  }

  private boolean device(Path zip) {
    String name = zip.getFileName().toString();
    Path node = host.node(zip);
    if (!Files.exists(node)) {
      report.add(name + " node", false, node + " does not exist");
      return false;
    }
    boolean access = mayOpen.test(node);
    String user = System.getProperty("user.name");
    report.add(
        name + " node",
        access,
        access
            ? node + " readable and writable by " + user
            : node
                + " not readable and writable by "
                + user
                + ": grant the executors' users access (see docs/yarn.md)");
    OptionalLong free = KaeZipHost.availableInstances(zip);
    boolean queues = free.isPresent() && free.getAsLong() > 0;
    report.add(
        name + " queues",
        queues,
        !free.isPresent()
            ? "no available_instances attribute"
            : free.getAsLong() + " available_instances" + (queues ? "" : ": every queue is taken"));
    return access && queues;
  }

  private static String names(List<Path> paths) {
    return paths.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", "));
  }

  private BlockCodec load(CodecOptions o) {
    try {
      BlockCodec codec = Codecs.exact(o);
      report.add("library", true, library + " loaded [" + codec.description() + "]");
      return codec;
    } catch (CodecException e) {
      report.add("library", false, e.getMessage());
      return null;
    }
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
    KaeZipReport r = run(o.build());
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
