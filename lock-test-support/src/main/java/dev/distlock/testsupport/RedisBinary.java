package dev.distlock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds an executable {@code redis-server}.
 *
 * <p>Promises: {@link #path()} returns an existing, executable file, resolved once per JVM.
 * <ol>
 *   <li>If the environment variable {@value #OVERRIDE_ENV} is set (non-blank), that path is used as is.</li>
 *   <li>Otherwise the redis-server {@value #VERSION} bundled at the root of the {@code org.signal:embedded-redis}
 *       jar for this OS and architecture is extracted to
 *       {@code ${java.io.tmpdir}/distlock-redis-<user>/redis-server-<version>-<os>-<arch>}. The file is written
 *       to a temporary name and atomically moved into place, so JVMs running in parallel never see a partial
 *       binary, and an intact copy from an earlier run is reused.</li>
 * </ol>
 * A clear {@link RedisServerException} is thrown when the override does not exist, is not executable or does not
 * answer {@code --version} like a redis-server, when the platform has no bundled binary, or when embedded-redis is
 * not on the class path. The server and version in use are logged once per JVM and given by {@link #version()}.
 *
 * <p>The override may be a wrapper script (such as those {@code .ci/servers.sh} writes for Redis 8 and Valkey) as
 * long as it {@code exec}s the server, so that the spawned pid is the server's.
 */
public final class RedisBinary {

    /** The redis-server version bundled in embedded-redis. */
    public static final String VERSION = "7.0.15";

    /** Environment variable naming a redis-server binary to use instead of the bundled one. */
    public static final String OVERRIDE_ENV = "DISTLOCK_REDIS_SERVER";

    private static final Logger log = LoggerFactory.getLogger(RedisBinary.class);

    private static @Nullable Path resolved;

    private static @Nullable String resolvedVersion;

    private RedisBinary() {
    }

    /**
     * The redis-server to run: the {@value #OVERRIDE_ENV} override, or the bundled binary, extracted on first use.
     *
     * @return an existing, executable file
     * @throws RedisServerException if no usable binary can be provided
     */
    public static synchronized Path path() {
        Path path = resolved;
        if (path == null) {
            path = resolve(System.getenv(), RedisPlatform.currentResourceName(), tmpRoot());
            String version = RedisVersion.of(path);
            log.info("tests use {} ({}{})", version, path, isOverridden(System.getenv()) ? ", from " + OVERRIDE_ENV
                    : ", bundled");
            resolvedVersion = version;
            resolved = path;
        }
        return path;
    }

    /**
     * The server and version that {@link #path()} runs.
     *
     * @return e.g. {@code Redis 7.0.15} or {@code Valkey 9.1.2}
     * @throws RedisServerException if no usable binary can be provided
     */
    public static synchronized String version() {
        path();
        return Objects.requireNonNull(resolvedVersion);
    }

    private static boolean isOverridden(Map<String, String> env) {
        String override = env.get(OVERRIDE_ENV);
        return override != null && !override.isBlank();
    }

    static Path resolve(Map<String, String> env, String resourceName, Path tmpRoot) {
        String override = env.get(OVERRIDE_ENV);
        if (override != null && !override.isBlank()) {
            Path path = Paths.get(override.trim()).toAbsolutePath();
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new RedisServerException(OVERRIDE_ENV + "=" + override
                        + " does not name an executable redis-server file");
            }
            log.debug("using redis-server from {}: {}", OVERRIDE_ENV, path);
            return path;
        }
        return extract(resourceName, tmpRoot);
    }

    private static Path tmpRoot() {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return Paths.get(System.getProperty("java.io.tmpdir")).resolve("distlock-redis-" + user);
    }

    private static Path extract(String resourceName, Path dir) {
        URL resource = RedisBinary.class.getResource("/" + resourceName);
        if (resource == null) {
            throw new RedisServerException("Resource " + resourceName
                    + " not found on the class path: add org.signal:embedded-redis, or set " + OVERRIDE_ENV
                    + " to the path of a redis-server binary");
        }
        try {
            long expectedSize = contentLength(resource);
            Path target = dir.resolve(resourceName);
            if (isIntact(target, expectedSize)) {
                return target;
            }
            return writeAtomically(resource, dir, target);
        } catch (IOException stableDirFailed) {
            // e.g. the shared directory belongs to someone else: fall back to a private one for this JVM
            try {
                Path privateDir = TempDirs.create("distlock-redis-bin-");
                return writeAtomically(resource, privateDir, privateDir.resolve(resourceName));
            } catch (IOException | RuntimeException e) {
                e.addSuppressed(stableDirFailed);
                throw new RedisServerException("Could not extract " + resourceName + " to " + dir
                        + " or a private temp directory", e);
            }
        }
    }

    private static long contentLength(URL resource) throws IOException {
        URLConnection connection = resource.openConnection();
        connection.setUseCaches(false);
        long length = connection.getContentLengthLong();
        connection.getInputStream().close();
        return length;
    }

    private static boolean isIntact(Path target, long expectedSize) throws IOException {
        return expectedSize > 0 && Files.isRegularFile(target) && Files.isExecutable(target)
                && Files.size(target) == expectedSize;
    }

    private static Path writeAtomically(URL resource, Path dir, Path target) throws IOException {
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, target.getFileName().toString(), ".part");
        try {
            try (InputStream in = resource.openStream()) {
                Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            log.debug("extracted {} to {}", resource, target);
            return target;
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
