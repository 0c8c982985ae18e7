package dev.distlock.core;

import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fixture of tests that freeze Redis ({@code redis.server().pause()}): a fresh redis-server per test, skipped where
 * the server is not one this JVM can signal, and per-test {@link LockClients}. After each test a server left paused is
 * resumed before the clients close, so their close never waits out a timeout.
 */
abstract class PausableRedisTest {

    @RegisterExtension
    final RedisExtension redis = RedisExtension.single();

    protected LockClients clients;

    @BeforeEach
    void startClients() {
        this.redis.assumeControllable();
        this.clients = new LockClients(this.redis.uri());
    }

    @AfterEach
    void resumeAndCloseClients() {
        this.redis.server().resume();
        this.clients.close();
    }
}
