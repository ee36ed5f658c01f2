package io.github.kaeshuffle.reader;

/**
 * What a reduce-side reader needs, resolved by the shuffle manager.
 *
 * @param decoderCodec the codec that decodes blocks of its own format (other formats use the
 *     default decoder of theirs); null for the defaults only
 */
public record ReaderSettings(io.github.kaeshuffle.codec.BlockCodec decoderCodec) {}
