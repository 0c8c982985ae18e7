package dev.distlock.spring.aop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.OnNotAcquired;

import org.springframework.core.annotation.AliasFor;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** Real annotated services for the {@code @SpringBootTest}s. */
final class LockedServices {

    private LockedServices() {
    }

    /** When a locked section ran, on {@code System.nanoTime}. */
    record Interval(long start, long end) {

        boolean overlaps(Interval other) {
            return this.start < other.end && other.start < this.end;
        }
    }

    record Order(String id) {
    }

    record Nested(long outerToken, long innerToken, String innerName, boolean outerLeaseRestored) {
    }

    /** A composed annotation: a fixed name, the key exposed through {@link AliasFor}. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @DistributedLock(name = "composed", waitTime = "1s")
    @interface ComposedLock {

        @AliasFor(annotation = DistributedLock.class, attribute = "key")
        String value();
    }

    /** A bean referenced from key expressions as {@code @keyNames}. */
    public static class KeyNames {

        public String prefix() {
            return "tenant-7";
        }
    }

    public static class OrderService {

        private final AtomicInteger bodyCalls = new AtomicInteger();

        /** How often a locked body ran (a field would be read from the proxy, not the target). */
        public AtomicInteger bodyCalls() {
            return this.bodyCalls;
        }

        @DistributedLock(name = "orders", key = "#orderId")
        public Interval process(String orderId, Duration work) throws InterruptedException {
            long start = System.nanoTime();
            Thread.sleep(work.toMillis());
            return new Interval(start, System.nanoTime());
        }

        @DistributedLock(name = "meet", key = "#id", waitTime = "1s")
        public String meet(String id, CyclicBarrier barrier) throws Exception {
            barrier.await(3, TimeUnit.SECONDS);
            return id;
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0")
        public String throwing(String id) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public String skipping(String id) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public Optional<String> skippingOptional(String id) {
            this.bodyCalls.incrementAndGet();
            return Optional.of("ran");
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        public void skippingVoid(String id) {
            this.bodyCalls.incrementAndGet();
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "busyFallback")
        public String withFallback(String id) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @SuppressWarnings("unused")
        private String busyFallback(String id, LockNotAcquiredException ex) {
            return "fallback for " + id + " (" + ex.lockName() + ", waited " + ex.waitTime() + ")";
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "plainFallback")
        public int withPlainFallback(String id) {
            this.bodyCalls.incrementAndGet();
            return 1;
        }

        int plainFallback(String id) {
            return -1;
        }

        @DistributedLock(name = "busy", key = "#id", waitTime = "${test.lock.short-wait}")
        public String placeholderWait(String id) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @DistributedLock(name = "orders", key = "#order.id")
        public String byOrder(Order order) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @DistributedLock(key = "#p0")
        public String byIndex(String key) {
            this.bodyCalls.incrementAndGet();
            return "ran";
        }

        @DistributedLock(key = "@keyNames.prefix() + ':' + #root.methodName + ':' + #a0")
        public String beanAndRootKey(String id) {
            return currentLockName();
        }

        @ComposedLock("#id")
        public String composed(String id) {
            return currentLockName();
        }

        @DistributedLock("'fixed'")
        public String keyOnly() {
            return currentLockName();
        }

        @DistributedLock(key = "'fixed'")
        public String otherKeyOnly() {
            return currentLockName();
        }

        @DistributedLock(name = "fixed-name")
        public String nameOnly() {
            return currentLockName();
        }

        @DistributedLock(name = "held", key = "#id")
        public boolean leaseIsHeldInside(String id) {
            return LockContext.currentLease().map(LockLease::isHeld).orElse(false);
        }

        private static String currentLockName() {
            return LockContext.currentLease().map(LockLease::name).orElse("no lease");
        }
    }

    public static class OuterService {

        private final InnerService inner;

        public OuterService(InnerService inner) {
            this.inner = inner;
        }

        @DistributedLock(name = "nested", key = "#id")
        public Nested outer(String id) {
            LockLease outerLease = LockContext.currentLease().orElseThrow();
            LockLease innerLease = this.inner.inner(id);
            boolean restored = LockContext.currentLease().orElse(null) == outerLease && outerLease.isHeld();
            return new Nested(outerLease.fencingToken(), innerLease.fencingToken(), innerLease.name(), restored);
        }
    }

    public static class InnerService {

        /** Waits zero: without reentry the nested call would fail at once instead of deadlocking. */
        @DistributedLock(name = "nested", key = "#id", waitTime = "0")
        public LockLease inner(String id) {
            return LockContext.currentLease().orElseThrow();
        }
    }

    /** Appends rows in a transaction while holding a lock; the lock must outlive the commit. */
    public static class LedgerService {

        private final List<Boolean> lockedAfterCommit = new CopyOnWriteArrayList<>();

        private final JdbcTemplate jdbc;

        private final RedisLockClient lockClient;

        public LedgerService(JdbcTemplate jdbc, RedisLockClient lockClient) {
            this.jdbc = jdbc;
            this.lockClient = lockClient;
        }

        /** For each commit: whether the lock was still held in Redis and by the lease just after it. */
        public List<Boolean> lockedAfterCommit() {
            return this.lockedAfterCommit;
        }

        /** Like {@link #append} without a pause, under a fixed 300 ms lease. */
        @DistributedLock(name = "ledger", key = "#account", waitTime = "10s", leaseTime = "300ms")
        @Transactional
        public int appendShortLease(String account) {
            Integer seen = this.jdbc.queryForObject("select count(*) from ledger where account = ?", Integer.class,
                    account);
            this.jdbc.update("insert into ledger (account, seq) values (?, ?)", account, (seen != null) ? seen + 1 : 1);
            return (seen != null) ? seen : 0;
        }

        /** Returns how many committed rows of the account it saw before adding one. */
        @DistributedLock(name = "ledger", key = "#account", waitTime = "10s")
        @Transactional
        public int append(String account, Duration pauseBeforeCommit) {
            Integer seen = this.jdbc.queryForObject("select count(*) from ledger where account = ?", Integer.class,
                    account);
            int count = (seen != null) ? seen : 0;
            this.jdbc.update("insert into ledger (account, seq) values (?, ?)", account, count + 1);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

                @Override
                public void beforeCommit(boolean readOnly) {
                    try {
                        Thread.sleep(pauseBeforeCommit.toMillis());
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public void afterCommit() {
                    boolean inRedis = LedgerService.this.lockClient.getLock("ledger:" + account).isLocked();
                    boolean leaseHeld = LockContext.currentLease().map(LockLease::isHeld).orElse(false);
                    LedgerService.this.lockedAfterCommit.add(inRedis && leaseHeld);
                }
            });
            return count;
        }
    }

    /**
     * Calls the locked {@link LedgerService} from its own transaction, which the locked method joins (REQUIRED), and
     * pauses before that outer transaction commits.
     */
    public static class OuterLedgerService {

        private final LedgerService ledger;

        private final RedisLockClient lockClient;

        private final List<Boolean> lockedAtOuterCommit = new CopyOnWriteArrayList<>();

        public OuterLedgerService(LedgerService ledger, RedisLockClient lockClient) {
            this.ledger = ledger;
            this.lockClient = lockClient;
        }

        /** For each outer commit: whether the lock was still held in Redis just before and just after it. */
        public List<Boolean> lockedAtOuterCommit() {
            return this.lockedAtOuterCommit;
        }

        @Transactional
        public int appendInOuterTransaction(String account, Duration pauseBeforeOuterCommit) {
            int seen = this.ledger.append(account, Duration.ZERO);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

                @Override
                public void beforeCommit(boolean readOnly) {
                    try {
                        Thread.sleep(pauseBeforeOuterCommit.toMillis());
                    }
                    catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    OuterLedgerService.this.lockedAtOuterCommit.add(isLocked(account));
                }

                @Override
                public void afterCommit() {
                    OuterLedgerService.this.lockedAtOuterCommit.add(isLocked(account));
                }
            });
            return seen;
        }

        /** Appends under a 300 ms fixed lease, then outlives it before the outer commit. */
        @Transactional
        public int appendThenOutliveTheLease(String account) throws InterruptedException {
            int seen = this.ledger.appendShortLease(account);
            Thread.sleep(700);
            return seen;
        }

        private boolean isLocked(String account) {
            return this.lockClient.getLock("ledger:" + account).isLocked();
        }
    }

    /** Holds its lock until the stage it was given completes. */
    public static class FutureService {

        @DistributedLock(name = "future-release", key = "#id")
        public CompletableFuture<String> holdUntil(String id, CompletableFuture<String> work) {
            return work;
        }
    }
}
