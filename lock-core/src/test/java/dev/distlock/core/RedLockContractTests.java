package dev.distlock.core;

import java.util.ArrayList;
import java.util.List;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract for RedLock over 3 independent masters. */
class RedLockContractTests extends LockContractTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.independent(3);

    private final List<RedisClient> redisClients = new ArrayList<>();

    private RedLockClient first;

    private RedLockClient second;

    @BeforeEach
    void startClients() {
        redis.flushAll();
        this.first = newClient();
        this.second = newClient();
    }

    private RedLockClient newClient() {
        List<RedisClient> masters = new ArrayList<>();
        for (String uri : redis.uris()) {
            RedisClient client = RedisClient.create(RedisURI.create(uri));
            masters.add(client);
            this.redisClients.add(client);
        }
        return RedLockClient.create(masters,
                LockClientOptions.builder().watchdogLease(LockClients.TEST_WATCHDOG_LEASE).build(),
                RedLockClient.DEFAULT_NODE_TIMEOUT);
    }

    @AfterEach
    void stopClients() {
        this.first.close();
        this.second.close();
        this.redisClients.forEach(RedisClient::shutdown);
    }

    @Override
    protected RedisLock firstClientLock(String name) {
        return this.first.getLock(name);
    }

    @Override
    protected RedisLock secondClientLock(String name) {
        return this.second.getLock(name);
    }

    @Override
    protected void deleteLockState(String name) {
        for (String uri : redis.uris()) {
            RedisClient client = RedisClient.create(RedisURI.create(uri));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                connection.sync().del("lock:{" + name + "}");
            }
            finally {
                client.shutdown();
            }
        }
    }
}
