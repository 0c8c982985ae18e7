package dev.distlock.testsupport;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Maps {@code os.name}/{@code os.arch} to the name of the redis-server resource bundled in embedded-redis.
 */
final class RedisPlatform {

    static final String SUPPORTED = "linux-amd64, linux-arm64, linux-386, darwin-amd64, darwin-arm64";

    private RedisPlatform() {
    }

    /** The resource name for the running JVM, e.g. {@code redis-server-7.0.15-linux-amd64}. */
    static String currentResourceName() {
        return resourceName(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /**
     * The resource name for the given platform.
     *
     * @throws RedisServerException if embedded-redis bundles no binary for it
     */
    static String resourceName(String osName, String osArch) {
        String os = os(osName.toLowerCase(Locale.ROOT));
        String arch = arch(osArch.toLowerCase(Locale.ROOT));
        if (os == null || arch == null || (arch.equals("386") && !os.equals("linux"))) {
            throw new RedisServerException("No bundled redis-server for os.name='" + osName + "', os.arch='" + osArch
                    + "' (bundled: " + SUPPORTED + "). Set the environment variable "
                    + RedisBinary.OVERRIDE_ENV + " to the path of a redis-server " + RedisBinary.VERSION
                    + "-compatible binary.");
        }
        return "redis-server-" + RedisBinary.VERSION + "-" + os + "-" + arch;
    }

    private static @Nullable String os(String name) {
        if (name.contains("linux")) {
            return "linux";
        }
        if (name.contains("mac") || name.contains("darwin")) {
            return "darwin";
        }
        return null;
    }

    private static @Nullable String arch(String arch) {
        return switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i486", "i586", "i686" -> "386";
            default -> null;
        };
    }
}
