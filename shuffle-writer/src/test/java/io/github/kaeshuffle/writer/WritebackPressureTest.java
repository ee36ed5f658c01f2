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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On fake /proc and /sys trees: when the kernel holds this process's writes back. */
class WritebackPressureTest {
  @TempDir Path root;

  private void write(String file, String text) throws IOException {
    FakeKernel.write(root, file, text);
  }

  private void machine(long dirtyKb, long writebackKb) throws IOException {
    FakeKernel.machine(root, dirtyKb, writebackKb);
  }

  @Test
  void aFewDirtyPagesAreNoPressure() throws IOException {
    machine(1088, 0);
    write("proc/self/cgroup", "12:memory:/\n0::/\n");
    assertFalse(new WritebackPressure(root).behind());
  }

  @Test
  void tellsTheMachinesBytesWaitingForItsDisks() throws IOException {
    machine(1_200_000, 400_000);
    write("proc/self/cgroup", "12:memory:/\n0::/\n");
    WritebackPressure w = new WritebackPressure(root);
    assertEquals(0, w.waitingBytes(), "nothing read yet");
    w.behind();
    assertEquals(1_600_000L * 1024, w.waitingBytes());
  }

  @Test
  void dirtyPagesNearTheMachinesFreerunLimitAre() throws IOException {
    machine(1_200_000, 400_000); // 1.6 GB waiting, freerun 3 GB
    assertTrue(new WritebackPressure(root).behind());
  }

  @Test
  void aSmallDirtyBytesLimitCountsAsSetNotAsRatio() throws IOException {
    machine(6_000, 2_000); // 8 MB waiting
    write("proc/sys/vm/dirty_bytes", "16777216\n");
    write("proc/sys/vm/dirty_background_bytes", "8388608\n");
    assertTrue(new WritebackPressure(root).behind());
  }

  @Test
  void aCgroupV1FullOfDirtyPagesIs() throws IOException {
    machine(300_000, 0);
    write("proc/self/cgroup", "12:memory:/yarn/container_1\n4:cpu,cpuacct:/yarn\n");
    write("sys/fs/cgroup/memory/yarn/container_1/memory.limit_in_bytes", "2147483648\n");
    write("sys/fs/cgroup/memory/yarn/container_1/memory.stat", "cache 1\ndirty 250000000\n");
    assertTrue(new WritebackPressure(root).behind());
    write("sys/fs/cgroup/memory/yarn/container_1/memory.stat", "cache 1\ndirty 25000000\n");
    assertFalse(new WritebackPressure(root).behind());
  }

  @Test
  void anUnlimitedCgroupLeavesItToTheMachine() throws IOException {
    machine(1088, 0);
    write("proc/self/cgroup", "0::/user.slice\n");
    write("sys/fs/cgroup/user.slice/memory.max", "max\n");
    write("sys/fs/cgroup/user.slice/memory.stat", "file_dirty 900000000\n");
    assertFalse(new WritebackPressure(root).behind());
    write("sys/fs/cgroup/user.slice/memory.max", "1073741824\n");
    assertTrue(new WritebackPressure(root).behind());
  }

  @Test
  void nothingReadableIsNoPressure() {
    assertFalse(new WritebackPressure(root).behind());
  }

  @Test
  void pressureOnceSeenCountsForTheHoldThenEnds() throws IOException {
    machine(1_200_000, 400_000);
    write("proc/self/cgroup", "12:memory:/\n0::/\n");
    long[] now = {0};
    WritebackPressure p = new WritebackPressure(root, () -> now[0]);
    assertTrue(p.behind());
    machine(1088, 0); // a task's files deleted: the dirty pages drop for a moment
    now[0] += WritebackPressure.REFRESH_NANOS + 1;
    assertTrue(p.behind(), "within the hold");
    now[0] = WritebackPressure.HOLD_NANOS + 1;
    assertFalse(p.behind(), "after the hold");
  }
}
