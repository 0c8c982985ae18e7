package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * B12, least privilege: the lock contract holds for a Redis ACL user that may run only the commands the library
 * sends (scripts included) on keys {@code lock:*} and channels {@code lock:*}: the ACL documented in
 * docs/spring-boot-starter.md ("Redis ACL"). A permission taken away fails the first call that needs it, at once, with
 * a message naming the command.
 */
@Timeout(120)
class AclUserContractTests extends LockContractTests {

    /** The documented rules, less the user name and password. Keep in step with docs/spring-boot-starter.md. */
    static final List<String> LOCK_USER_RULES = List.of("on", "resetkeys", "~lock:*", "resetchannels", "&lock:*",
            "-@all", "+evalsha", "+eval", "+script|load", "+exists", "+subscribe", "+unsubscribe", "+publish",
            "+pubsub|numsub", "+ping", "+role", "+wait", "+get", "+set", "+del",
            "+pexpire", "+pttl", "+time", "+lindex", "+llen", "+lpop", "+lpos", "+lrange", "+lrem", "+rpush",
            "+zadd", "+zcard", "+zcount", "+zrange", "+zrangebyscore", "+zrank", "+zrem", "+zremrangebyscore",
            "+zscore");

    private static final String USER = "locks";

    private static final String PASSWORD = "locks-secret";

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final KeptThreads threads = new KeptThreads();

    private LockClients admin;

    private LockClients asLockUser;

    private RedisCommands<String, String> raw;

    private RedisLockClient first;

    private RedisLockClient second;

    @BeforeEach
    void startClientsAsTheLockUser() {
        redis.flushAll();
        this.admin = new LockClients(redis.uri());
        this.raw = this.admin.raw();
        setUser(LOCK_USER_RULES);
        this.asLockUser = new LockClients(redis.uri().replace("redis://", "redis://" + USER + ":" + PASSWORD + "@"));
        this.first = this.asLockUser.create();
        this.second = this.asLockUser.create();
    }

    @AfterEach
    void stopClients() {
        try {
            this.asLockUser.close();
        }
        finally {
            this.raw.aclDeluser(USER);
            this.admin.close();
        }
    }

    private void setUser(List<String> rules) {
        List<String> all = new ArrayList<>(List.of("reset", ">" + PASSWORD));
        all.addAll(rules);
        this.raw.dispatch(io.lettuce.core.protocol.CommandType.ACL, new io.lettuce.core.output.StatusOutput<>(
                io.lettuce.core.codec.StringCodec.UTF8), new io.lettuce.core.protocol.CommandArgs<>(
                        io.lettuce.core.codec.StringCodec.UTF8).add("SETUSER").add(USER).addValues(all));
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
        this.raw.keys("lock:{" + name + "}*").stream().filter((key) -> !key.endsWith(":fence"))
            .forEach(this.raw::del);
    }

    @Test
    void readWriteAndMultiLocksWorkAsTheLockUserToo() throws Exception {
        ReadWriteRedisLock rw = this.first.getReadWriteLock("acl-rw");
        try (LockLease read = rw.readLock().acquire(Duration.ofSeconds(5))) {
            assertThat(read.isHeld()).isTrue();
        }
        try (LockLease write = rw.writeLock().acquire(Duration.ofSeconds(5))) {
            assertThat(write.fencingToken()).isPositive();
        }
        try (LockLease both = this.first.getMultiLock("acl-a", "acl-b").acquire(Duration.ofSeconds(5))) {
            assertThat(both.fencingTokens()).hasSize(2);
        }
        assertThat(this.first.inspect("acl-rw").held()).isFalse();
    }

    @Test
    void semaphoresWorkAsTheLockUserToo() throws Exception {
        RedisSemaphore semaphore = this.first.getSemaphore("acl-semaphore", 1);
        LockLease held = semaphore.acquire(Duration.ofSeconds(5));
        RedisSemaphore other = this.second.getSemaphore("acl-semaphore", 1);
        java.util.concurrent.CompletableFuture<LockLease> waiter = this.threads.run("waiter",
                () -> other.acquire(Duration.ofSeconds(30)));
        assertThat(semaphore.setPermits(2)).isEqualTo(1);
        try (LockLease second = waiter.get(30, java.util.concurrent.TimeUnit.SECONDS)) {
            assertThat(second.fencingToken()).isGreaterThan(held.fencingToken());
            assertThat(this.first.inspectSemaphore("acl-semaphore").holders()).hasSize(2);
        }
        held.close();
        assertThat(semaphore.tryAcquire(Duration.ZERO)).hasValueSatisfying(LockLease::close);
    }

    @Test
    void aMissingPermissionFailsTheFirstCallAtOnceNamingTheCommandAScriptRuns() {
        List<String> withoutExists = new ArrayList<>(LOCK_USER_RULES);
        withoutExists.remove("+exists");
        setUser(withoutExists);

        long start = System.nanoTime();
        // The fair lock's first attempt is a script (take.lua), whose first command is EXISTS.
        assertThatExceptionOfType(LockException.class)
            .isThrownBy(() -> this.first.getFairLock("acl-missing").acquire(Duration.ofSeconds(10)))
            .withMessageContaining("the Redis user may not run 'exists'")
            .withMessageContaining("ACL SETUSER <user> +exists");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(this.raw.exists("lock:{acl-missing}")).isZero();
        // the failed acquire is an unknown outcome: at most a short-lived tombstone is left, never a lock
        assertThat(this.raw.keys("lock:{acl-missing}*")).allSatisfy((key) -> assertThat(this.raw.pttl(key)).isPositive());
    }

    @Test
    void aMissingPermissionFailsAPlainCommandAtOnceNamingIt() {
        List<String> withoutSet = new ArrayList<>(LOCK_USER_RULES);
        withoutSet.remove("+set");
        setUser(withoutSet);

        long start = System.nanoTime();
        // The reentrant lock's first attempt is a plain SET NX.
        assertThatExceptionOfType(LockException.class)
            .isThrownBy(() -> this.first.getLock("acl-missing-set").acquire(Duration.ofSeconds(10)))
            .withMessageContaining("the Redis user may not run 'set'")
            .withMessageContaining("ACL SETUSER <user> +set");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(this.raw.exists("lock:{acl-missing-set}")).isZero();
    }

    @Test
    void keysOutsideThePrefixAreRefused() {
        RedisLockClient otherPrefix = this.asLockUser.create(LockClientOptions.builder().keyPrefix("other:").build());
        assertThatExceptionOfType(LockException.class)
            .isThrownBy(() -> otherPrefix.getLock("outside").acquire(Duration.ofSeconds(1)))
            .withMessageContaining("may not access the keys of this lock (command SET)")
            .withMessageContaining("~lock:*");
        assertThatExceptionOfType(LockException.class)
            .isThrownBy(() -> otherPrefix.getFairLock("outside").acquire(Duration.ofSeconds(1)))
            .withMessageContaining("may not access the keys of this lock (script queued/take.lua)")
            .withMessageContaining("~lock:*");
    }
}
