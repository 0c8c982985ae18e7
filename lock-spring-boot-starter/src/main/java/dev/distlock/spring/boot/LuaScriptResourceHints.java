package dev.distlock.spring.boot;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Native-image hints for the Lua scripts lock-core reads from its jar ({@code LuaScript}): every
 * {@code dev/distlock/core/scripts/<family>/*.lua} and the {@code scripts/lib/*.lua} files they include. lock-core
 * does not depend on Spring, so the starter registers them, in {@code META-INF/spring/aot.factories}.
 */
final class LuaScriptResourceHints implements RuntimeHintsRegistrar {

    /** The scripts of every family folder, lib/ included. */
    static final String SCRIPTS = "dev/distlock/core/scripts/**/*.lua";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(SCRIPTS);
    }
}
