package io.github.kaeshuffle.writer;

import java.io.IOException;
import java.nio.file.Path;

/** Creates files for spills (Spark: its disk block manager's temporary shuffle blocks). */
public interface SpillFiles {
  Path newSpillFile() throws IOException;
}
