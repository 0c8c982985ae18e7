package dev.distlock.test.app;

import dev.distlock.core.LockLease;
import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockContext;
import dev.distlock.spring.annotation.OnNotAcquired;

import org.springframework.stereotype.Service;

/** Reserves stock under a lock per SKU. */
@Service
public class Reservations {

    /** Waits up to 200 ms for the SKU's lock; the reply names the lock and its fencing token. */
    @DistributedLock(name = "reservation", key = "#sku", waitTime = "200ms")
    public String reserve(String sku) {
        LockLease lease = LockContext.currentLease().orElseThrow();
        return lease.name() + "#" + lease.fencingToken();
    }

    /** One attempt; when the SKU is busy, {@link #busy} answers instead. */
    @DistributedLock(name = "reservation", key = "#sku", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
            fallback = "busy")
    public String tryReserve(String sku) {
        return "reserved " + sku;
    }

    String busy(String sku, LockNotAcquiredException ex) {
        return sku + " is busy on " + ex.holderInstanceId();
    }
}
