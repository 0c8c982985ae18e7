package dev.distlock.core.internal.redis;

import java.nio.charset.StandardCharsets;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * Server commands that not every Lettuce version users run has a method for (Spring Boot 3.5 brings Lettuce 6), sent
 * with {@code dispatch}.
 */
enum ServerCommand implements ProtocolKeyword {

    /** Valkey 9 and later: {@code DELIFEQ key value}, 1 when it deleted the key, 0 when the value differed. */
    DELIFEQ,

    /** Redis 8.4 and later: {@code DELEX key IFEQ value}, 1 when it deleted the key, 0 when the value differed. */
    DELEX,

    /** The condition of {@link #DELEX} that compares the value. */
    IFEQ;

    private final byte[] bytes = name().getBytes(StandardCharsets.US_ASCII);

    @Override
    public byte[] getBytes() {
        return this.bytes;
    }
}
