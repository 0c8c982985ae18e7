package dev.distlock.sample;

import dev.distlock.testsupport.RedisBinary;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Native-image hints for the class-path files the sample reads itself: its Lua scripts ({@link StockStore}) and the
 * redis-server binaries of {@code org.signal:embedded-redis} that {@link EmbeddedRedisInitializer} extracts (every
 * platform's, about 27 MB: the image may be built on another platform than the one it runs on). The starter
 * registers its own (lock-core's scripts, key expressions, fallbacks).
 */
class SampleRuntimeHints implements RuntimeHintsRegistrar {

    static final String SCRIPTS = "dev/distlock/sample/scripts/*.lua";

    static final String REDIS_BINARIES = "redis-server-" + RedisBinary.VERSION + "-*";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS).registerPattern(REDIS_BINARIES);
    }
}
