package dev.distlock.core;

import java.util.function.BiFunction;

import org.junit.jupiter.api.Nested;

/** The lock contract, proven for every exclusive lock kind of one Redis deployment. */
class LockKindContractTests {

    @Nested
    class ReentrantLockContractTests extends SingleServerContract {

        @Override
        protected BiFunction<RedisLockClient, String, RedisLock> kind() {
            return RedisLockClient::getLock;
        }
    }

    @Nested
    class FairLockContractTests extends SingleServerContract {

        @Override
        protected BiFunction<RedisLockClient, String, RedisLock> kind() {
            return RedisLockClient::getFairLock;
        }
    }

    @Nested
    class WriteLockContractTests extends SingleServerContract {

        @Override
        protected BiFunction<RedisLockClient, String, RedisLock> kind() {
            return (client, name) -> client.getReadWriteLock(name).writeLock();
        }
    }

    @Nested
    class MultiLockContractTests extends SingleServerContract {

        @Override
        protected BiFunction<RedisLockClient, String, RedisLock> kind() {
            return (client, name) -> client.getMultiLock(name + "-b", name + "-a");
        }

        @Override
        protected void deleteLockState(String name) {
            super.deleteLockState(name + "-a");
        }
    }
}
