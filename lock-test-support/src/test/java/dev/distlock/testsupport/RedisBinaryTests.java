package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisBinaryTests {

    @Test
    void pathIsAnExecutableResolvedOncePerJvm() {
        Path path = RedisBinary.path();

        assertThat(path).isRegularFile().isExecutable();
        assertThat(RedisBinary.path()).isSameAs(path);
    }

    @Test
    void extractsIntoTheGivenDirectoryAndReusesAnIntactCopy(@TempDir Path dir) throws Exception {
        String resource = RedisPlatform.currentResourceName();

        Path first = RedisBinary.resolve(Map.of(), resource, dir);
        Files.setLastModifiedTime(first, FileTime.fromMillis(1_000_000L));
        Path second = RedisBinary.resolve(Map.of(), resource, dir);

        assertThat(first).isEqualTo(dir.resolve(resource)).isExecutable();
        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second).toMillis()).as("not rewritten").isEqualTo(1_000_000L);
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temp files left behind").containsExactly(first);
        }
    }

    @Test
    void rewritesATruncatedCopy(@TempDir Path dir) throws Exception {
        String resource = RedisPlatform.currentResourceName();
        Path target = RedisBinary.resolve(Map.of(), resource, dir);
        long size = Files.size(target);
        Files.write(target, new byte[] {1, 2, 3});

        RedisBinary.resolve(Map.of(), resource, dir);

        assertThat(Files.size(target)).isEqualTo(size);
    }

    @Test
    void environmentOverrideWins(@TempDir Path dir) {
        Path real = RedisBinary.path();

        Path resolved = RedisBinary.resolve(Map.of(RedisBinary.OVERRIDE_ENV, real.toString()), "ignored", dir);

        assertThat(resolved).isEqualTo(real.toAbsolutePath());
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void overrideThatIsNotExecutableIsAClearError(@TempDir Path dir) {
        Map<String, String> env = Map.of(RedisBinary.OVERRIDE_ENV, dir.resolve("nope").toString());

        assertThatThrownBy(() -> RedisBinary.resolve(env, "ignored", dir))
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining(RedisBinary.OVERRIDE_ENV)
                .hasMessageContaining("nope");
    }

    @Test
    void versionNamesTheServerInUse() {
        assertThat(RedisBinary.version()).matches("(Redis|Valkey) \\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void versionOutputOfRedisAndValkeyIsUnderstood() {
        assertThat(RedisVersion.parse("Redis server v=7.0.15 sha=00000000:0 malloc=libc bits=64 build=1"))
                .contains("Redis 7.0.15");
        assertThat(RedisVersion.parse("Valkey server v=9.1.2 sha=00000000:0 malloc=jemalloc-5.3.1 bits=64"))
                .contains("Valkey 9.1.2");
        assertThat(RedisVersion.parse("something else")).isEmpty();
    }

    @Test
    void overrideThatIsNoRedisServerIsAClearError(@TempDir Path dir) throws Exception {
        Path notRedis = dir.resolve("not-redis");
        Files.writeString(notRedis, "#!/bin/sh\necho 'hello from not-redis'\n");
        Files.setPosixFilePermissions(notRedis, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(() -> RedisVersion.of(notRedis))
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("hello from not-redis")
                .hasMessageContaining(RedisBinary.OVERRIDE_ENV);
    }

    @Test
    void mapsPlatformsToBundledResources() {
        assertThat(RedisPlatform.resourceName("Linux", "amd64")).isEqualTo("redis-server-7.0.15-linux-amd64");
        assertThat(RedisPlatform.resourceName("Linux", "aarch64")).isEqualTo("redis-server-7.0.15-linux-arm64");
        assertThat(RedisPlatform.resourceName("Linux", "i386")).isEqualTo("redis-server-7.0.15-linux-386");
        assertThat(RedisPlatform.resourceName("Mac OS X", "x86_64")).isEqualTo("redis-server-7.0.15-darwin-amd64");
        assertThat(RedisPlatform.resourceName("Mac OS X", "aarch64")).isEqualTo("redis-server-7.0.15-darwin-arm64");
    }

    @Test
    void unsupportedPlatformIsAClearError() {
        assertThatThrownBy(() -> RedisPlatform.resourceName("Windows 11", "amd64"))
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("Windows 11")
                .hasMessageContaining(RedisBinary.OVERRIDE_ENV);
        assertThatThrownBy(() -> RedisPlatform.resourceName("Linux", "riscv64"))
                .isInstanceOf(RedisServerException.class)
                .hasMessageContaining("riscv64");
        assertThatThrownBy(() -> RedisPlatform.resourceName("Mac OS X", "x86"))
                .isInstanceOf(RedisServerException.class);
    }
}
