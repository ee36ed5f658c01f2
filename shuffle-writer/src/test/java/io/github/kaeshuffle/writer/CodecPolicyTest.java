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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The codec policy on recorded measurements: map tasks of 8 MiB whose codec and disk times are what
 * the lz4 / zstd figures of this machine's codec benchmark and the node shapes' disks give.
 */
class CodecPolicyTest {
  private static final long MIB = 1L << 20;
  private static final long TASK = 8 * MIB;
  private static final List<CodecStep> LADDER =
      Arrays.asList(
          new CodecStep("lz4 level 1", 1.8, 0.78, 0.17),
          new CodecStep("zstd level 1", 2.7, 0.51, 0.3),
          new CodecStep("zstd level 3", 5.3, 0.47, 0.25));

  /** One map task on a step: its codec's time and stored bytes, its disk's time per stored byte. */
  private static Optional<String> task(
      CodecPolicy p, double encodeNsPerByte, double storedRatio, double diskNsPerStoredByte) {
    int step = p.step();
    long stored = (long) (TASK * storedRatio);
    long codec = (long) (TASK * encodeNsPerByte);
    return p.record(step, TASK, stored, codec, (long) (stored * diskNsPerStoredByte), false);
  }

  /** The steps chosen over tasks whose figures each step has on the given disk. */
  private static List<Integer> run(CodecPolicy p, int tasks, double[][] figures, double disk) {
    List<Integer> chosen = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      double[] f = figures[p.step()];
      task(p, f[0], f[1], disk);
      chosen.add(p.step());
    }
    return chosen;
  }

  /** ns/B and stored ratio per step as measured on sort-like data. */
  private static final double[][] SORT = {{1.8, 0.78}, {2.7, 0.51}, {5.3, 0.47}};

  @Test
  void whileWritesAreHeldBackTheShuffleOnlyMovesToStrongerSteps() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    run(p, 4, SORT, 300); // the Kunpeng shape's disk
    assertEquals(2, p.step());
    // The page cache takes a few tasks' writes at once: they look free, but writes are held back.
    for (int i = 0; i < 10; i++) {
      double[] f = SORT[p.step()];
      long stored = (long) (TASK * f[1]);
      assertFalse(p.record(p.step(), TASK, stored, (long) (TASK * f[0]), 0, true).isPresent());
    }
    assertEquals(2, p.step());
    // Once the kernel keeps up again and the disk stays cheap, the tasks move it back down.
    run(p, 60, SORT, 0);
    assertEquals(0, p.step());
  }

  @Test
  void aFewTasksThePageCacheTakesDoNotMoveItBack() {
    // The x86 shape's 3.2 GB sort as its executors logged it: lz4 1.8 ns/B storing 0.74, zstd
    // level 1 3.15 ns/B storing 0.48; the disk bound the first tasks (30 ns per stored byte), then
    // took ten tasks' writes at 3 while the dirty pages of the earlier ones were still to be
    // written.
    double[][] text = {{1.8, 0.74}, {3.15, 0.48}, {6.0, 0.45}};
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    run(p, 6, text, 30);
    assertEquals(1, p.step());
    List<Integer> cheapForAWhile = run(p, 10, text, 3);
    assertTrue(cheapForAWhile.stream().allMatch(s -> s == 1), cheapForAWhile.toString());
    // Cheap for good: the lasting cost follows and the shuffle goes down, saying on which cost.
    Optional<String> down = Optional.empty();
    for (int i = 0; i < 60 && !down.isPresent(); i++) {
      double[] f = text[p.step()];
      down = task(p, f[0], f[1], 0.4);
    }
    assertTrue(down.isPresent() && p.step() == 0, "went down: " + down);
  }

  @Test
  void staysOnTheCheapStepWhenThePageCacheTakesTheWrites() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    assertEquals(0, p.step());
    // A copy into the page cache: about 0.4 ns per byte.
    List<Integer> chosen = run(p, 20, SORT, 0.4);
    assertTrue(chosen.stream().allMatch(s -> s == 0), chosen.toString());
  }

  @Test
  void climbsWhenTheDiskIsTheBoundAndSaysWhy() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    // The Kunpeng node per core: 5.9 MB/s, 170 ns per byte.
    Optional<String> moved = task(p, 1.8, 0.78, 170);
    assertTrue(moved.isPresent());
    assertTrue(moved.get().startsWith("lz4 level 1 -> zstd level 3"), moved.get());
    assertTrue(moved.get().contains("disk 170.00 ns/B"), moved.get());
    assertTrue(p.describe().startsWith("zstd level 3: estimated"), p.describe());
    List<Integer> chosen = run(p, 10, SORT, 170);
    assertTrue(chosen.stream().allMatch(s -> s == 2), chosen.toString());
  }

  @Test
  void sizesAreScaledToWhatTheFirstStepWouldHaveStored() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    assertEquals(1.0, p.firstStepScale(0));
    run(p, 5, SORT, 170);
    assertEquals(2, p.step());
    // Both steps measured: lz4 stores 0.78 of the raw bytes, zstd level 3 0.47.
    assertEquals(0.78 / 0.47, p.firstStepScale(2), 1e-6);
    // Unmeasured in this shuffle: zstd level 1 by the reference figures' comparison.
    assertEquals(0.78 / 0.51, p.firstStepScale(1), 0.02);
  }

  @Test
  void aStrongerStepThatStoresMoreIsNotScaledDown() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    p.record(0, TASK, TASK / 2, (long) (TASK * 1.8), 0, false);
    p.record(1, TASK, TASK * 4 / 5, (long) (TASK * 2.7), 0, false);
    assertEquals(1.0, p.firstStepScale(1));
  }

  @Test
  void aMiddlingDiskStopsAtTheMiddleStep() {
    // The x86 node per core, 33 MB/s: about 30 ns per byte.
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    List<Integer> chosen = run(p, 10, SORT, 12);
    assertEquals(1, (int) chosen.get(chosen.size() - 1), chosen.toString());
  }

  @Test
  void goesBackDownWhenTheDiskStopsBeingTheBound() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    run(p, 5, SORT, 170);
    assertEquals(2, p.step());
    List<Integer> later = run(p, 80, SORT, 0.4);
    assertEquals(0, (int) later.get(later.size() - 1), later.toString());
  }

  @Test
  void aStepThatMeasuresWorseThanItsReferenceIsLeft() {
    // Data zstd barely shrinks: zstd's measurements replace its reference and the shuffle returns.
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    double[][] noGain = {{1.8, 0.78}, {2.7, 0.77}, {5.3, 0.77}};
    List<Integer> chosen = run(p, 12, noGain, 6);
    assertEquals(0, (int) chosen.get(chosen.size() - 1), chosen.toString());
  }

  @Test
  void theSameMeasurementsGiveTheSameChoices() {
    double[] disks = {0.4, 0.5, 40, 170, 160, 3, 0.4, 0.3, 90, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4};
    List<Integer> first = new ArrayList<>();
    List<Integer> second = new ArrayList<>();
    for (List<Integer> out : Arrays.asList(first, second)) {
      CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
      for (double d : disks) {
        out.addAll(run(p, 1, SORT, d));
      }
    }
    assertEquals(first, second);
  }

  @Test
  void tasksTooSmallToTrustMoveNothing() {
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost());
    assertFalse(p.record(0, 4096, 3000, 7000, 3000 * 170L, false).isPresent());
    assertEquals(0, p.step());
    assertFalse(p.record(0, 0, 0, 0, 0, false).isPresent());
  }

  @Test
  void aNewShuffleStartsWhereTheExecutorsDiskPointsAt() {
    DiskCost disk = new DiskCost();
    run(new CodecPolicy(LADDER, disk), 4, SORT, 170);
    CodecPolicy next = new CodecPolicy(LADDER, disk);
    assertEquals(2, next.step());
    assertTrue(next.describe().contains("a stored byte's cost on this executor"), next.describe());
    assertEquals(0, new CodecPolicy(LADDER, new DiskCost()).step());
    // A page cache a little slow (6 ns per byte): the references alone do not move a new shuffle.
    DiskCost copy = new DiskCost();
    copy.add(6 * TASK, TASK);
    assertEquals(0, new CodecPolicy(LADDER, copy).step());
  }

  @Test
  void aDiskBehindMovesTheShuffleBeforeAnyTaskWaitsForIt() {
    DiskCost disk = new DiskCost();
    disk.owe(170); // a 5.9 MB/s disk far behind
    CodecPolicy p = new CodecPolicy(LADDER, disk);
    assertEquals(2, p.step(), "a new shuffle starts at the strongest step");
    // A shuffle already on the cheap step, its writes taken by the page cache at 1 ns per byte:
    DiskCost cached = new DiskCost();
    CodecPolicy q = new CodecPolicy(LADDER, cached);
    run(q, 3, SORT, 1);
    assertEquals(0, q.step());
    cached.owe(170);
    run(q, 1, SORT, 1);
    assertEquals(2, q.step(), "the next task moves it, its own waits still a copy's");
    cached.owe(0);
    run(q, 3, SORT, 1);
    assertEquals(2, q.step(), "a disk that caught up a moment ago moves nothing back");
  }

  @Test
  void laterShufflesPriceAStepByHowTheExecutorMeasuredIt() {
    // kmeans-docs on the host while the cache went to the disk: lz4 0.93 ns/B storing 0.27, zstd
    // level 1 4.2 ns/B storing 0.10 (the references, from the sort text, say 1.5x and 0.65x).
    double[][] docs = {{0.93, 0.27}, {4.2, 0.10}, {9.0, 0.09}};
    DiskCost disk = new DiskCost();
    LadderHistory history = new LadderHistory(LADDER);
    List<List<Integer>> shuffles = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      CodecPolicy p = new CodecPolicy(LADDER, disk, new LinkCost(), history);
      List<Integer> steps = new ArrayList<>();
      steps.add(p.step());
      steps.addAll(run(p, 6, docs, 15));
      shuffles.add(steps);
    }
    // The first shuffle tries zstd on the references and leaves it; the later ones start and stay
    // on lz4 (on the references each started on zstd, from the disk's cost, and left it).
    assertTrue(shuffles.get(0).contains(1), shuffles.toString());
    for (List<Integer> later : shuffles.subList(1, shuffles.size())) {
      assertTrue(later.stream().allMatch(s -> s == 0), shuffles.toString());
    }
    assertEquals(4.2 / 0.93, history.encode().ratio(1, 0), 1e-6);
    assertEquals(0.10 / 0.27, history.stored().ratio(1, 0), 1e-6);
  }

  /** Reduce tasks of an earlier shuffle that waited {@code nsPerByte} per stored byte read. */
  private static LinkCost link(double nsPerByte, boolean remote) {
    LinkCost link = new LinkCost();
    for (int i = 0; i < 4; i++) {
      link.add((long) (TASK * nsPerByte), TASK, remote ? TASK / 2 : 0);
    }
    return link;
  }

  @Test
  void climbsWhenReduceTasksWaitForTheLinkAndSaysWhy() {
    // The Kunpeng node's link per core, under 1 MB/s: about 1,000 ns per byte, half of them
    // remote on two hosts; the disk's page cache takes the writes.
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost(), link(500, true));
    assertEquals(2, p.step());
    assertTrue(p.describe().contains("link 500.00 ns/B"), p.describe());
    List<Integer> chosen = run(p, 10, SORT, 0.4);
    assertTrue(chosen.stream().allMatch(s -> s == 2), chosen.toString());
  }

  @Test
  void aLinkThatKeepsUpLeavesTheCheapStep() {
    // 1 Gbit/s feeding two cores: blocks arrive before they are wanted.
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost(), link(0.5, true));
    List<Integer> chosen = run(p, 20, SORT, 0.4);
    assertTrue(chosen.stream().allMatch(s -> s == 0), chosen.toString());
  }

  @Test
  void readsOfThisHostsSegmentsSayNothingOfTheLink() {
    LinkCost local = link(500, false);
    assertEquals(0.0, local.nanosPerByte());
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost(), local);
    assertTrue(run(p, 20, SORT, 0.4).stream().allMatch(s -> s == 0));
  }

  @Test
  void aLinkFoundMidStageMovesTheMapTasksThatFollow() {
    LinkCost link = new LinkCost();
    CodecPolicy p = new CodecPolicy(LADDER, new DiskCost(), link);
    run(p, 5, SORT, 0.4);
    assertEquals(0, p.step());
    for (int i = 0; i < 4; i++) {
      link.add((long) (TASK * 200.0), TASK, TASK);
    }
    Optional<String> moved = task(p, 1.8, 0.78, 0.4);
    assertTrue(moved.isPresent() && moved.get().contains("link 200.00 ns/B"), moved.toString());
    assertEquals(2, p.step());
  }

  @Test
  void aLadderOfOneStepNeverMoves() {
    CodecPolicy p = new CodecPolicy(LADDER.subList(0, 1), new DiskCost());
    assertTrue(run(p, 5, SORT, 170).stream().allMatch(s -> s == 0));
    assertThrows(
        IllegalArgumentException.class, () -> new CodecPolicy(new ArrayList<>(), new DiskCost()));
    assertThrows(IllegalArgumentException.class, () -> new CodecStep("x", 1, 1.5, 0));
  }
}
