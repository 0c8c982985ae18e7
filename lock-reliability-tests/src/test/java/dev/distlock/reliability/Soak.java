package dev.distlock.reliability;

import java.time.Duration;

/**
 * Sizes of the runs: the default suite keeps every test short (a few minutes in all on 2 cores); the {@code soak}
 * Maven profile ({@code -Psoak}, system property {@code distlock.soak=true}) runs the same tests longer and larger.
 */
final class Soak {

    private Soak() {
    }

    static boolean enabled() {
        return Boolean.getBoolean("distlock.soak");
    }

    static int count(int normal, int soak) {
        return enabled() ? soak : normal;
    }

    static Duration duration(Duration normal, Duration soak) {
        return enabled() ? soak : normal;
    }
}
