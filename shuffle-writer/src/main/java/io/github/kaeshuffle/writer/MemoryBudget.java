package io.github.kaeshuffle.writer;

/** Where a writer's buffers get their memory: Spark's task memory manager, or a test's budget. */
public interface MemoryBudget {
  /** Asks for {@code bytes}; returns how many were granted (possibly fewer, possibly 0). */
  long acquire(long bytes);

  void release(long bytes);
}
