package io.github.kaeshuffle.writer;

import java.io.IOException;
import java.io.OutputStream;

/** The map output, one stream per partition, opened in increasing partition order. */
public interface PartitionStreams {
  OutputStream open(int partition) throws IOException;

  /** The partition's segment is written; {@code stream} may be closed now. */
  void close(int partition, OutputStream stream) throws IOException;
}
