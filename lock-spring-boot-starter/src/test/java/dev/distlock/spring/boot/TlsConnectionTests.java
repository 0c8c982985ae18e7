package dev.distlock.spring.boot;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS end to end: a redis-server (the embedded 7.0.15 binary, built with TLS) listening with certificates this test
 * makes with {@code openssl} (a CA and a server certificate for 127.0.0.1); the locks reach it over {@code rediss://}
 * trusting the CA through a Spring Boot SSL bundle, on the application's connection and on a dedicated one. Skipped
 * where {@code openssl} is not installed.
 */
@Timeout(120)
class TlsConnectionTests {

    @TempDir
    static Path certificates;

    private static RedisServer server;

    private static int tlsPort;

    @BeforeAll
    static void startRedisWithTls() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/openssl")), "needs openssl to make the test certificates");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
                "-subj", "/CN=distlock-test-ca");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj",
                "/CN=localhost");
        Files.writeString(certificates.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n",
                StandardCharsets.US_ASCII);
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.crt", "-days", "2", "-extfile", "san.ext");
        try (ServerSocket free = new ServerSocket(0)) {
            tlsPort = free.getLocalPort();
        }
        server = RedisServer.start(RedisServerOptions.defaults().withArgs("--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", path("server.crt"), "--tls-key-file", path("server.key"), "--tls-ca-cert-file",
                path("ca.crt"), "--tls-auth-clients", "no"));
    }

    @AfterAll
    static void stopRedis() {
        if (server != null) {
            server.close();
        }
    }

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class))
        .withPropertyValues("spring.ssl.bundle.pem.redis.truststore.certificate=file:" + path("ca.crt"));

    @Test
    void locksOverTheApplicationsTlsConnectionWithAnSslBundle() {
        this.contextRunner
            .withPropertyValues("spring.data.redis.url=rediss://127.0.0.1:" + tlsPort,
                    "spring.data.redis.ssl.bundle=redis")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertLocksOverTls(context.getBean(LockTemplate.class), context.getBean(RedisLockClient.class),
                        "shared-tls");
            });
    }

    @Test
    void locksOverADedicatedTlsConnectionWithAnSslBundle() {
        this.contextRunner
            .withPropertyValues("spring.data.redis.port=" + server.port(),
                    "distributed-lock.redis.url=rediss://127.0.0.1:" + tlsPort,
                    "distributed-lock.redis.ssl.bundle=redis")
            .run((context) -> {
                assertThat(context).hasNotFailed();
                assertLocksOverTls(context.getBean(LockTemplate.class), context.getBean(RedisLockClient.class),
                        "dedicated-tls");
            });
    }

    @Test
    void aDedicatedTlsConnectionWithoutTrustInTheServersCaFailsTheStart() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.url=rediss://127.0.0.1:" + tlsPort)
            .run((context) -> assertThat(context).hasFailed());
    }

    private static void assertLocksOverTls(LockTemplate template, RedisLockClient client, String name) {
        assertThat(client.redisTarget()).isEqualTo("127.0.0.1:" + tlsPort);
        try (LockLease lease = template.acquire(name)) {
            assertThat(lease.fencingToken()).isPositive();
            // the plain port of the same server sees the lock the TLS connection took
            assertThat(RedisKeys.keys(server.uri(), "lock:{" + name + "}")).containsExactly("lock:{" + name + "}");
        }
        assertThat(RedisKeys.keys(server.uri(), "lock:{" + name + "}")).isEmpty();
    }

    private static String path(String file) {
        return certificates.resolve(file).toString();
    }

    private static void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("/usr/bin/openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(certificates.toFile()).redirectErrorStream(true)
            .start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("openssl finished").isTrue();
        assertThat(process.exitValue()).as("openssl %s: %s", command, output).isZero();
    }
}
