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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The KAEzip preflight's report: every check, in order, and the verdict ({@link KaeZipPreflight}).
 */
public final class KaeZipReport {
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

  /** The checks as they are made, and the verdict that ends them. */
  static final class Builder {
    private final List<Check> checks = new ArrayList<>();

    void add(String what, boolean ok, String found) {
      checks.add(new Check(what, ok, found));
    }

    /** The first failed check, as "what: found". */
    String firstFailure() {
      return checks.stream()
          .filter(c -> !c.ok())
          .findFirst()
          .map(c -> c.what() + ": " + c.found())
          .orElse("unknown");
    }

    KaeZipReport verdict(boolean inUse, String text) {
      return new KaeZipReport(
          Collections.unmodifiableList(new ArrayList<>(checks)), inUse, "KAEzip verdict: " + text);
    }
  }

  private final List<Check> checks;
  private final boolean hardwareInUse;
  private final String verdict;

  public KaeZipReport(List<Check> checks, boolean hardwareInUse, String verdict) {
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
    if (!(other instanceof KaeZipReport)) {
      return false;
    }
    KaeZipReport o = (KaeZipReport) other;
    return Objects.equals(checks, o.checks)
        && hardwareInUse == o.hardwareInUse
        && Objects.equals(verdict, o.verdict);
  }

  @Override
  public int hashCode() {
    return Objects.hash(checks, hardwareInUse, verdict);
  }
}
