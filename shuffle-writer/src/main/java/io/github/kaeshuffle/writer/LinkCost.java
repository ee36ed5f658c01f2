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
 * What a stored byte costs this executor's reduce tasks in waits for the network: the time they
 * spent waiting in Spark's fetcher, per stored byte they read, over the recent tasks that received
 * bytes from another host. Where the link is the bound, the reduce tasks wait for every byte the
 * map tasks stored, so a stronger codec's fewer bytes save that time; where it is not, blocks
 * arrive before they are wanted and this stays near 0. Tasks that read only this host's segments
 * say nothing of the link and are left out, so a single host never sees a link cost. Shared by
 * every shuffle of the executor; learned from one shuffle's reduce tasks, used by the map tasks of
 * the shuffles that follow. Thread-safe.
 */
public final class LinkCost {
  private final DecayedRate rate = new DecayedRate();

  /**
   * Adds one reduce task's waits: {@code waitNanos} in Spark's fetcher, {@code storedBytes} read in
   * all, {@code remoteBytes} of them received from another host (ignored when 0).
   */
  public synchronized void add(long waitNanos, long storedBytes, long remoteBytes) {
    if (remoteBytes > 0 && storedBytes > 0) {
      rate.add(Math.max(0, waitNanos), storedBytes);
    }
  }

  /** Whether the recent tasks read at least {@code least} bytes. */
  synchronized boolean covers(long least) {
    return rate.covers(least);
  }

  /** Nanoseconds of fetch wait per stored byte read; 0 before any task fetched from a host. */
  public synchronized double nanosPerByte() {
    return rate.costPerByte();
  }
}
