package dev.distlock.spring.boot;

import java.util.List;
import java.util.concurrent.Callable;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockType;

/** An annotated bean for the auto-configuration tests: runs a body under each kind of lock. */
public class LockedRunner {

    @DistributedLock(name = "run", key = "#id", waitTime = "2s")
    public <T> T reentrant(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    @DistributedLock(name = "run", keys = "#ids", waitTime = "2s")
    public <T> T multi(List<String> ids, Callable<T> body) throws Exception {
        return body.call();
    }

    @DistributedLock(name = "fair", key = "#id", type = LockType.FAIR, waitTime = "2s")
    public <T> T fair(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    @DistributedLock(name = "rw", key = "#id", type = LockType.READ, waitTime = "2s")
    public <T> T read(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    @DistributedLock(name = "rw", key = "#id", type = LockType.WRITE, waitTime = "2s")
    public <T> T write(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    /** One attempt, then THROW. */
    @DistributedLock(name = "once", key = "#id", waitTime = "0")
    public <T> T once(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    /** Without a name: its metrics name is the class and method. */
    @DistributedLock(key = "'unnamed:' + #id")
    public <T> T unnamed(String id, Callable<T> body) throws Exception {
        return body.call();
    }

    /** Waits the template's default. */
    @DistributedLock(name = "default-wait", key = "#id")
    public <T> T defaultWait(String id, Callable<T> body) throws Exception {
        return body.call();
    }
}
