package dev.distlock.reliability;

import dev.distlock.testsupport.FaultProxy;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The fixture most fault tests share, one real redis-server per test class ({@link #redis}): before each test the
 * server is flushed and a fresh {@link Clients} with a raw connection is made; after it, the child JVMs of
 * {@link #workers} are stopped, every client is closed and then the {@link #proxy()} if one was started (after the
 * subclass's own {@code @AfterEach}).
 */
abstract class SingleServerFaultTest {

    /** The server of the running test class: started before its first test, stopped after its last. */
    @RegisterExtension
    protected static final RedisExtension redis = RedisExtension.single();

    /** Child JVMs the test starts; all stopped after the test. */
    protected final WorkerGroup workers = new WorkerGroup();

    protected Clients clients;

    protected RedisCommands<String, String> raw;

    private @Nullable FaultProxy proxy;

    @BeforeEach
    void startClients() {
        redis.flushAll();
        this.clients = new Clients();
        this.raw = this.clients.raw(redis.uri());
    }

    /** A fault-injecting proxy in front of the server, started on first use and closed after the clients. */
    protected FaultProxy proxy() {
        if (this.proxy == null) {
            this.proxy = FaultProxy.start(redis.server());
        }
        return this.proxy;
    }

    @AfterEach
    void stopWorkersAndClients() throws Exception {
        this.workers.close();
        this.clients.close();
        if (this.proxy != null) {
            this.proxy.close();
        }
    }
}
