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
package org.apache.spark.shuffle.kae.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.ShuffleBlockBatchId;
import org.apache.spark.storage.ShuffleBlockId;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.JavaConverters;

/**
 * BlockLocations answers where a fetched block lives and how large the map status says it is; a
 * batch of contiguous partitions by the blocks it merges, or not at all when one is unknown.
 */
class BlockLocationsTest {
  private static final BlockManagerId HOST_A =
      BlockManagerId.apply("1", "host-a", 7337, Option.empty());
  private static final BlockManagerId HOST_B =
      BlockManagerId.apply("2", "host-b", 7337, Option.empty());

  private static Tuple3<BlockId, Object, Object> block(long map, int reduce, long size) {
    return new Tuple3<>(ShuffleBlockId.apply(0, map, reduce), size, 0);
  }

  @SafeVarargs
  private static <T> scala.collection.immutable.List<T> list(T... items) {
    return JavaConverters.asScalaBuffer(Arrays.asList(items)).toList();
  }

  /** Map 5's partitions 0-3 on host A (partition 2 empty, so absent), map 6's partition 0 on B. */
  private static BlockLocations locations() {
    List<Tuple2<BlockManagerId, scala.collection.Seq<Tuple3<BlockId, Object, Object>>>> hosts =
        Arrays.asList(
            new Tuple2<>(HOST_A, list(block(5, 0, 100), block(5, 1, 200), block(5, 3, 400))),
            new Tuple2<>(HOST_B, list(block(6, 0, 7))));
    return new BlockLocations(JavaConverters.asScalaBuffer(hosts).toList());
  }

  @Test
  void aBlockIsFoundWithItsHostAndSize() {
    BlockLocations at = locations();
    assertEquals(Option.apply(new Tuple2<>(HOST_A, 200L)), at.apply(ShuffleBlockId.apply(0, 5, 1)));
    assertEquals(Option.apply(new Tuple2<>(HOST_B, 7L)), at.apply(ShuffleBlockId.apply(0, 6, 0)));
  }

  @Test
  void aBatchIsLocatedAndSizedByTheBlocksItMerges() {
    assertEquals(
        Option.apply(new Tuple2<>(HOST_A, 300L)),
        locations().apply(ShuffleBlockBatchId.apply(0, 5, 0, 2)));
  }

  @Test
  void aBatchWithAnUnknownBlockOrNoneIsNotLocated() {
    BlockLocations at = locations();
    assertTrue(at.apply(ShuffleBlockBatchId.apply(0, 5, 1, 4)).isEmpty(), "partition 2 unknown");
    assertTrue(at.apply(ShuffleBlockBatchId.apply(0, 5, 3, 3)).isEmpty(), "an empty batch");
  }

  @Test
  void anUnknownBlockIsNotLocated() {
    BlockLocations at = locations();
    assertTrue(at.apply(ShuffleBlockId.apply(0, 7, 0)).isEmpty());
    assertTrue(at.apply(ShuffleBlockId.apply(1, 5, 0)).isEmpty(), "another shuffle's block");
  }
}
