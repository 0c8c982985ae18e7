package dev.distlock.spring.aop;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import dev.distlock.core.LockLease;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.LockType;
import dev.distlock.spring.aop.LockedServices.Interval;

/** Annotated services for every lock type and for multi-key locks. */
final class TypedLockServices {

    private TypedLockServices() {
    }

    /** What a nested call saw: the outer and inner leases' names and tokens. */
    record Reentry(String outerName, long outerToken, String innerName, long innerToken, boolean outerHeldAfter) {
    }

    static Interval timed(Duration work) throws InterruptedException {
        long start = System.nanoTime();
        Thread.sleep(work.toMillis());
        return new Interval(start, System.nanoTime());
    }

    static LockLease currentLease() {
        return LockContext.currentLease().orElseThrow();
    }

    /** READ and WRITE on the read/write lock "doc:{id}". */
    public static class Documents {

        @DistributedLock(name = "doc", key = "#id", type = LockType.READ, waitTime = "5s")
        public Interval read(String id, Duration work) throws InterruptedException {
            return timed(work);
        }

        @DistributedLock(name = "doc", key = "#id", type = LockType.READ, waitTime = "1s")
        public String readTogether(String id, CyclicBarrier barrier) throws Exception {
            barrier.await(3, TimeUnit.SECONDS);
            return id;
        }

        @DistributedLock(name = "doc", key = "#id", type = LockType.WRITE, waitTime = "5s")
        public Interval write(String id, Duration work) throws InterruptedException {
            return timed(work);
        }
    }

    /** The outer side of nested calls: each takes a lock and calls {@link Inner} on the same name. */
    public static class Outer {

        private final Inner inner;

        public Outer(Inner inner) {
            this.inner = inner;
        }

        @DistributedLock(name = "nested", key = "#id", type = LockType.FAIR)
        public Reentry fair(String id) {
            return reentry(() -> this.inner.fair(id));
        }

        @DistributedLock(name = "nested", key = "#id", type = LockType.READ)
        public Reentry read(String id) {
            return reentry(() -> this.inner.read(id));
        }

        @DistributedLock(name = "nested", key = "#id", type = LockType.WRITE)
        public Reentry write(String id) {
            return reentry(() -> this.inner.write(id));
        }

        /** Downgrade: a write-locked method calls a read-locked one on the same name. */
        @DistributedLock(name = "nested", key = "#id", type = LockType.WRITE)
        public Reentry writeThenRead(String id) {
            return reentry(() -> this.inner.read(id));
        }

        /** Upgrade: a read-locked method calls a write-locked one on the same name; refused. */
        @DistributedLock(name = "nested", key = "#id", type = LockType.READ)
        public Reentry readThenWrite(String id) {
            return reentry(() -> this.inner.write(id));
        }

        @DistributedLock(name = "nested", keys = { "#a", "#b" })
        public Reentry multi(String a, String b) {
            return reentry(() -> this.inner.multi(a, b));
        }

        @DistributedLock(name = "nested", keys = { "#a", "#b" })
        public Reentry multiThenSingle(String a, String b) {
            return reentry(() -> this.inner.reentrant(b));
        }

        private static Reentry reentry(Callable<LockLease> innerCall) {
            LockLease outer = currentLease();
            LockLease inner;
            try {
                inner = innerCall.call();
            }
            catch (RuntimeException ex) {
                throw ex;
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
            boolean outerHeldAfter = outer.isHeld() && LockContext.currentLease().orElse(null) == outer;
            return new Reentry(outer.name(), outer.fencingToken(), inner.name(), inner.fencingToken(),
                    outerHeldAfter);
        }
    }

    /** Waits zero everywhere: without reentry a nested call would fail at once instead of deadlocking. */
    public static class Inner {

        @DistributedLock(name = "nested", key = "#id", type = LockType.FAIR, waitTime = "0")
        public LockLease fair(String id) {
            return currentLease();
        }

        @DistributedLock(name = "nested", key = "#id", type = LockType.READ, waitTime = "0")
        public LockLease read(String id) {
            return currentLease();
        }

        @DistributedLock(name = "nested", key = "#id", type = LockType.WRITE, waitTime = "0")
        public LockLease write(String id) {
            return currentLease();
        }

        @DistributedLock(name = "nested", keys = { "#b", "#a" }, waitTime = "0")
        public LockLease multi(String a, String b) {
            return currentLease();
        }

        @DistributedLock(name = "nested", key = "#id", waitTime = "0")
        public LockLease reentrant(String id) {
            return currentLease();
        }
    }

    /** Fair-lock callers that record the order in which they got in. */
    public static class Queue {

        @DistributedLock(name = "queue", key = "#id", type = LockType.FAIR, waitTime = "10s")
        public void enter(String id, int caller, List<Integer> order) {
            order.add(caller);
        }
    }

    /** Multi-key locks: the lease's fencing tokens by lock name. */
    public static class Accounts {

        @DistributedLock(name = "account", keys = { "#from", "#to" }, waitTime = "10s")
        public Map<String, Long> transfer(String from, String to, Runnable inside) {
            inside.run();
            return currentLease().fencingTokens();
        }

        @DistributedLock(name = "account", keys = { "#from", "#to" }, waitTime = "10s")
        public Interval transferTimed(String from, String to, Duration work) throws InterruptedException {
            return timed(work);
        }

        @DistributedLock(name = "account", keys = { "#from", "#to" }, waitTime = "0")
        public Map<String, Long> transferOnce(String from, String to) {
            return currentLease().fencingTokens();
        }

        @DistributedLock(name = "sku", keys = "#skus")
        public Map<String, Long> reserve(List<String> skus) {
            return currentLease().fencingTokens();
        }

        @DistributedLock(keys = { "#skus", "'warehouse'" })
        public Map<String, Long> reserveArray(String[] skus) {
            return currentLease().fencingTokens();
        }
    }
}
