package dev.distlock.core;

/** Told when a {@link LockLease} is lost before it was released. Runs on a client thread; must not block. */
@FunctionalInterface
public interface LeaseLossListener {

    /** Called once per lost lease. */
    void leaseLost(LeaseLoss loss);
}
