package dev.distlock.core;

import java.util.List;
import java.util.function.BiFunction;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the lock contract for a lock kind of {@link RedisLockClient} against one real redis-server. */
abstract class SingleServerContract extends LockContractTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    static final LockClientsExtension lockClients = new LockClientsExtension(redis);

    private LockClients clients;

    private RedisLockClient first;

    private RedisLockClient second;

    private RedisCommands<String, String> raw;

    /** How this kind's lock is obtained from a client. */
    protected abstract BiFunction<RedisLockClient, String, RedisLock> kind();

    @BeforeEach
    void startClients(LockClients clients) {
        this.clients = clients;
        this.first = this.clients.create();
        this.second = this.clients.create();
        this.raw = this.clients.raw();
    }

    @Override
    protected RedisLock firstClientLock(String name) {
        return kind().apply(this.first, name);
    }

    @Override
    protected RedisLock secondClientLock(String name) {
        return kind().apply(this.second, name);
    }

    @Override
    protected void deleteLockState(String name) {
        List<String> keys = this.raw.keys("lock:{" + name + "}*");
        keys.stream().filter((key) -> !key.endsWith(":fence")).forEach(this.raw::del);
    }
}
