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
package io.github.kaeshuffle.writer;

/**
 * Nanoseconds per byte over the recent map tasks: each task's time and bytes are added to sums that
 * shrink by {@link #KEEP} per task, so a task weighs by its bytes and old tasks fade (after ten
 * tasks a task keeps 6% of its weight). Not thread-safe: its owner locks.
 */
final class DecayedRate {
  /** What each earlier task keeps of its weight when the next one is added. */
  static final double KEEP = 0.75;

  private final double keep;
  private double nanos;
  private double bytes;

  DecayedRate() {
    this(KEEP);
  }

  /** A rate whose earlier tasks keep {@code keep} of their weight at each new one. */
  DecayedRate(double keep) {
    this.keep = keep;
  }

  void add(long taskNanos, long taskBytes) {
    nanos = nanos * keep + taskNanos;
    bytes = bytes * keep + taskBytes;
  }

  /** Whether the recent tasks add up to at least {@code least} bytes. */
  boolean covers(long least) {
    return bytes >= least;
  }

  /** Nanoseconds per byte; NaN before any byte. */
  double perByte() {
    return bytes > 0 ? nanos / bytes : Double.NaN;
  }

  /** Nanoseconds per byte as a cost: 0 before any byte, as nothing was seen to cost anything. */
  double costPerByte() {
    return bytes > 0 ? nanos / bytes : 0;
  }
}
