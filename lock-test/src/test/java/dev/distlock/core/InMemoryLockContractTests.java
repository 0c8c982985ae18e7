package dev.distlock.core;

import java.util.function.BiFunction;

import dev.distlock.test.memory.InMemoryLockClient;
import org.junit.jupiter.api.Nested;

/**
 * lock-core's lock contract ({@link LockContractTests}, from lock-core's test jar) for every exclusive lock kind of
 * the in-memory client: the same tests as {@code LockKindContractTests} runs on Redis, so the two cannot drift. Lives
 * in lock-core's package because the contract is package-private there.
 */
class InMemoryLockContractTests {

    @Nested
    class ReentrantLockContractTests extends InMemoryContract {

        @Override
        BiFunction<LockClient, String, RedisLock> kind() {
            return LockClient::getLock;
        }
    }

    @Nested
    class FairLockContractTests extends InMemoryContract {

        @Override
        BiFunction<LockClient, String, RedisLock> kind() {
            return LockClient::getFairLock;
        }
    }

    @Nested
    class WriteLockContractTests extends InMemoryContract {

        @Override
        BiFunction<LockClient, String, RedisLock> kind() {
            return (client, name) -> client.getReadWriteLock(name).writeLock();
        }
    }

    @Nested
    class MultiLockContractTests extends InMemoryContract {

        @Override
        BiFunction<LockClient, String, RedisLock> kind() {
            return (client, name) -> client.getMultiLock(name + "-b", name + "-a");
        }

        @Override
        protected void deleteLockState(String name) {
            super.deleteLockState(name + "-a");
        }
    }

    /** Two clients of two instances on one set of in-memory locks; "deleting the state" loses the holds. */
    abstract static class InMemoryContract extends LockContractTests {

        private final InMemoryLockClient first = new InMemoryLockClient();

        private final InMemoryLockClient second = this.first.otherInstance("second-instance");

        /** How this kind's lock is obtained from a client. */
        abstract BiFunction<LockClient, String, RedisLock> kind();

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
            this.first.loseLease(name);
        }
    }
}
