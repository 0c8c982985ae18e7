package dev.distlock.reliability;

import java.time.Duration;

import dev.distlock.testsupport.LockEvent;

/**
 * The classic fencing scenario, shared by F3 and its negative control: holder A reads the counter and is frozen
 * (SIGSTOP, watchdog included) for twice its lease; B takes the lock, increments, releases; A is continued and writes
 * the value it read plus one with its old token.
 */
final class PausedHolderScenario {

    /** What happened; stamps are {@code System.nanoTime()}. */
    record Outcome(LockEvent firstGrant, LockEvent secondGrant, LockEvent staleWrite, long pausedAt,
            long resumedAt) {
    }

    private PausedHolderScenario() {
    }

    /**
     * @param checkHeld whether A's section end asks {@code isHeld()} (a careful holder) or not (a naive one)
     */
    static Outcome run(Worker a, Worker b, String lock, boolean checkHeld) {
        Duration step = Duration.ofSeconds(10);
        LockEvent first = a.acquire(lock, Duration.ZERO, Duration.ZERO, step);
        if (first.type() != LockEvent.Type.OK) {
            throw new AssertionError("A did not get the free lock: " + first);
        }
        long t = System.nanoTime();
        a.send("read " + lock);
        a.await(LockEvent.Type.READ, lock, t, step);

        long pausedAt = System.nanoTime();
        a.pause();
        long pause = 2 * Clients.LEASE.toMillis();
        LockEvent second = b.acquire(lock, Duration.ofMillis(pause + 5_000), Duration.ZERO, step.plusMillis(pause));
        if (second.type() != LockEvent.Type.OK) {
            throw new AssertionError("B did not get the lock of the paused holder: " + second);
        }
        t = System.nanoTime();
        b.send("read " + lock);
        b.await(LockEvent.Type.READ, lock, t, step);
        b.send("write " + lock);
        b.await(LockEvent.Type.WRITE_OK, lock, t, step);
        b.send("end " + lock);
        b.await(LockEvent.Type.END, lock, t, step);
        b.send("release " + lock);
        b.await(LockEvent.Type.RELEASED, lock, t, step);
        long sleep = pause - (System.nanoTime() - pausedAt) / 1_000_000;
        if (sleep > 0) {
            try {
                Thread.sleep(sleep);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        long resumedAt = System.nanoTime();
        a.resume();
        a.send("write " + lock);
        LockEvent stale = a.await("stale write", step, e -> e.lock().equals(lock) && e.nanos() >= resumedAt
                && (e.type() == LockEvent.Type.WRITE_OK || e.type() == LockEvent.Type.WRITE_REJECTED));
        if (checkHeld) {
            a.send("end " + lock);
        }
        else {
            a.send("end-unchecked " + lock);
        }
        a.await(LockEvent.Type.END, lock, resumedAt, step);
        return new Outcome(first, second, stale, pausedAt, resumedAt);
    }
}
