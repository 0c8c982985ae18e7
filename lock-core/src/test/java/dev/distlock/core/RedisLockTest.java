package dev.distlock.core;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fixture of most lock tests: one real redis-server per test class, flushed before each test, and the per-test
 * {@link LockClients} of {@link LockClientsExtension} (closed after the test) with a raw connection. Test methods can
 * also take a {@link RedisLockClient} or a raw {@code RedisCommands<String, String>} as parameters.
 */
abstract class RedisLockTest {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    static final LockClientsExtension lockClients = new LockClientsExtension(redis);

    protected LockClients clients;

    protected RedisCommands<String, String> raw;

    @BeforeEach
    void injectClients(LockClients clients) {
        this.clients = clients;
        this.raw = clients.raw();
    }

    /** The server's clock in milliseconds, as the scripts read it ({@code TIME}). */
    protected long serverMillis() {
        java.util.List<String> time = this.raw.time();
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }
}
