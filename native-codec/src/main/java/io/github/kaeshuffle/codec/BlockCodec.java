package io.github.kaeshuffle.codec;

/**
 * A block codec backend: compresses or decompresses one whole block per call. A {@code BlockCodec}
 * is thread-safe and cheap to share; the contexts it creates are not: each thread (or each owner)
 * creates its own {@link BlockCompressor} / {@link BlockDecompressor}, reuses it for every block
 * and closes it at the end.
 */
public interface BlockCodec {
  /** The backend's name as used in configuration: zlib, kaezip, libdeflate, java, lz4, zstd. */
  String name();

  CodecFormat format();

  /** The compression level contexts of this codec use. */
  int level();

  /** What serves this codec, for logs: library, version, path. */
  String description();

  /** The largest compressed size of {@code rawLength} bytes; size destinations with it. */
  int maxCompressedLength(int rawLength);

  BlockCompressor newCompressor() throws CodecException;

  BlockDecompressor newDecompressor() throws CodecException;
}
