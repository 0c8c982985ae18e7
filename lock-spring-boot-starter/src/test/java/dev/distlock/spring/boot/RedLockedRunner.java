package dev.distlock.spring.boot;

import java.util.concurrent.Callable;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockType;

/** An annotated bean with RedLock methods; its application must configure distributed-lock.redlock.nodes. */
public class RedLockedRunner {

    @DistributedLock(name = "pay", key = "#id", type = LockType.REDLOCK, waitTime = "2s")
    public <T> T redLock(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    @DistributedLock(name = "pay", key = "#id", type = LockType.REDLOCK, waitTime = "0")
    public <T> T redLockOnce(String id, Callable<T> body) throws Exception {
        return body.call();
    }
}
