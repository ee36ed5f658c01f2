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
package io.github.kaeshuffle.it;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.shuffle.api.ShuffleDataIO;
import org.apache.spark.shuffle.api.ShuffleDriverComponents;
import org.apache.spark.shuffle.api.ShuffleExecutorComponents;
import org.apache.spark.shuffle.api.ShuffleMapOutputWriter;
import org.apache.spark.shuffle.api.ShufflePartitionWriter;
import org.apache.spark.shuffle.api.metadata.MapOutputCommitMessage;
import org.apache.spark.shuffle.sort.io.LocalDiskShuffleDataIO;

/**
 * Spark's local-disk shuffle storage ({@code spark.shuffle.sort.io.plugin.class}) with a disk error
 * injected into the first attempt of map task 0: while its bytes are written ({@code
 * spark.kae.test.failWrite=write}), when it commits ({@code =commit}), or right after its output
 * was committed ({@code =afterCommit}). With {@code =slow} nothing fails: every map task's writes
 * are slowed to {@link #SLOW_BYTES_PER_MS} bytes per millisecond (a slow disk, for the shuffle
 * doctor's tests); with {@code =slowCommit} every map task's commit takes {@link
 * #SLOW_COMMIT_MILLIS} longer (a cost per task, whatever it stored). Everything else is Spark's own
 * code writing real files.
 */
public final class FailingShuffleDataIO implements ShuffleDataIO {
  public static final String MODE = "spark.kae.test.failWrite";

  /** The slow disk's speed: 256 bytes per ms, about 0.25 MB/s. */
  public static final long SLOW_BYTES_PER_MS = 256;

  /** What the slow commit adds to each map task's commit. */
  public static final long SLOW_COMMIT_MILLIS = 200;

  private final LocalDiskShuffleDataIO delegate;
  private final String mode;

  public FailingShuffleDataIO(SparkConf conf) {
    this.delegate = new LocalDiskShuffleDataIO(conf);
    this.mode = conf.get(MODE, "none");
  }

  @Override
  public ShuffleDriverComponents driver() {
    return delegate.driver();
  }

  @Override
  public ShuffleExecutorComponents executor() {
    ShuffleExecutorComponents local = delegate.executor();
    return new ShuffleExecutorComponents() {
      @Override
      public void initializeExecutor(String appId, String execId, Map<String, String> extra) {
        local.initializeExecutor(appId, execId, extra);
      }

      @Override
      public ShuffleMapOutputWriter createMapOutputWriter(
          int shuffleId, long mapTaskId, int numPartitions) throws IOException {
        ShuffleMapOutputWriter writer =
            local.createMapOutputWriter(shuffleId, mapTaskId, numPartitions);
        TaskContext task = TaskContext.get();
        boolean fail = task != null && task.partitionId() == 0 && task.attemptNumber() == 0;
        boolean slow = "slow".equals(mode) || "slowCommit".equals(mode);
        return fail || slow ? new Failing(writer) : writer;
      }
    };
  }

  private static IOException diskError() {
    return new IOException("No space left on device (injected by FailingShuffleDataIO)");
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while the slow disk slept");
    }
  }

  private final class Failing implements ShuffleMapOutputWriter {
    private final ShuffleMapOutputWriter writer;
    private long written;

    /** Bytes written by the slow disk and not yet paid for with a sleep. */
    private long unpaid;

    Failing(ShuffleMapOutputWriter writer) {
      this.writer = writer;
    }

    @Override
    public ShufflePartitionWriter getPartitionWriter(int reducePartitionId) throws IOException {
      ShufflePartitionWriter p = writer.getPartitionWriter(reducePartitionId);
      return new ShufflePartitionWriter() {
        @Override
        public OutputStream openStream() throws IOException {
          return new FilterOutputStream(p.openStream()) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              // Fails once some bytes of the map output are already in the file.
              if ("write".equals(mode) && written > 1000) {
                throw diskError();
              }
              written += len;
              out.write(b, off, len);
              if ("slow".equals(mode)) {
                unpaid += len;
                if (unpaid >= SLOW_BYTES_PER_MS) {
                  sleep(unpaid / SLOW_BYTES_PER_MS);
                  unpaid %= SLOW_BYTES_PER_MS;
                }
              }
            }

            @Override
            public void write(int b) throws IOException {
              write(new byte[] {(byte) b}, 0, 1);
            }
          };
        }

        @Override
        public long getNumBytesWritten() {
          return p.getNumBytesWritten();
        }
      };
    }

    @Override
    public MapOutputCommitMessage commitAllPartitions(long[] checksums) throws IOException {
      if ("commit".equals(mode)) {
        throw diskError();
      }
      if ("slowCommit".equals(mode)) {
        sleep(SLOW_COMMIT_MILLIS);
      }
      MapOutputCommitMessage committed = writer.commitAllPartitions(checksums);
      if ("afterCommit".equals(mode)) {
        // The attempt's files are committed, then the attempt is lost: its retry commits the
        // same map task again, as the slower of two speculative copies does.
        throw new IOException("Attempt lost after its commit (injected by FailingShuffleDataIO)");
      }
      return committed;
    }

    @Override
    public void abort(Throwable error) throws IOException {
      writer.abort(error);
    }
  }
}
