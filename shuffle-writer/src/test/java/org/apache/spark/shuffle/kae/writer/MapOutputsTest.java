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
package org.apache.spark.shuffle.kae.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext$;
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter;
import org.apache.spark.shuffle.api.ShufflePartitionWriter;
import org.apache.spark.shuffle.api.metadata.MapOutputCommitMessage;
import org.junit.jupiter.api.Test;

/**
 * A map output that could not be written fails its task naming what it was, and aborting it never
 * hides why it failed.
 */
class MapOutputsTest {

  /** Spark's map output writer that records its aborts and fails them when asked. */
  private static final class Output implements ShuffleMapOutputWriter {
    final List<Throwable> aborted = new ArrayList<>();
    final IOException abortFails;

    Output(IOException abortFails) {
      this.abortFails = abortFails;
    }

    @Override
    public ShufflePartitionWriter getPartitionWriter(int reducePartitionId) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MapOutputCommitMessage commitAllPartitions(long[] checksums) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void abort(Throwable error) throws IOException {
      aborted.add(error);
      if (abortFails != null) {
        throw abortFails;
      }
    }
  }

  @Test
  void anIoFailureNamesTheShuffleMapOutputAndAttempt() {
    IOException disk = new IOException("No space left on device");
    Exception failed = MapOutputs.failure(disk, 3, 17L, TaskContext$.MODULE$.empty());
    IOException io = assertInstanceOf(IOException.class, failed);
    assertEquals(
        "KAE Shuffle could not write the map output of shuffle 3 (map 17, partition 0, attempt 0);"
            + " its partial output was discarded: No space left on device",
        io.getMessage());
    assertSame(disk, io.getCause());
  }

  @Test
  void otherFailuresAreLeftAsTheyAre() {
    IllegalStateException bug = new IllegalStateException("not an I/O error");
    assertSame(bug, MapOutputs.failure(bug, 3, 17L, TaskContext$.MODULE$.empty()));
  }

  @Test
  void anAbortIsToldTheCause() {
    Output out = new Output(null);
    IOException cause = new IOException("write failed");
    MapOutputs.abortQuietly(out, cause, 1, 2L);
    assertEquals(List.of(cause), out.aborted);
    assertEquals(0, cause.getSuppressed().length);
  }

  @Test
  void aFailedAbortIsAttachedToTheCauseNeverThrownInstead() {
    IOException abortFailed = new IOException("could not delete the temporary file");
    Output out = new Output(abortFailed);
    IOException cause = new IOException("write failed");
    MapOutputs.abortQuietly(out, cause, 1, 2L);
    assertEquals(1, cause.getSuppressed().length);
    assertSame(abortFailed, cause.getSuppressed()[0]);
  }
}
