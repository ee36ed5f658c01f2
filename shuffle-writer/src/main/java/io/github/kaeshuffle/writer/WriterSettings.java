package io.github.kaeshuffle.writer;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.format.BlockFormat;
import java.util.Objects;

/**
 * What a map-side writer needs, already resolved and checked by the shuffle manager: writers never
 * read SparkConf themselves.
 *
 * @param codec the block codec chosen for this executor
 * @param blockSize raw bytes per block (every block but a partition's last is exactly this long)
 */
public record WriterSettings(BlockCodec codec, int blockSize) {
  public WriterSettings {
    Objects.requireNonNull(codec, "codec");
    BlockFormat.checkBlockSize(blockSize);
  }
}
