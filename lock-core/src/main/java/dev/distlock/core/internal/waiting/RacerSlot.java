package dev.distlock.core.internal.waiting;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets one local waiter per lock name race for Redis at a time; the others queue here in arrival order and cost no
 * Redis calls. Non-blocking: {@link #acquire()} returns a future that completes when the slot is the caller's.
 */
final class RacerSlot {

    private final ReentrantLock guard = new ReentrantLock();

    private final ArrayDeque<CompletableFuture<Void>> queue = new ArrayDeque<>();

    private boolean taken;

    CompletableFuture<Void> acquire() {
        this.guard.lock();
        try {
            if (!this.taken) {
                this.taken = true;
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> turn = new CompletableFuture<>();
            this.queue.add(turn);
            return turn;
        }
        finally {
            this.guard.unlock();
        }
    }

    /** Gives up a turn obtained from {@link #acquire()}, whether or not it was granted yet. */
    void leave(CompletableFuture<Void> turn) {
        if (turn.cancel(false)) {
            this.guard.lock();
            try {
                this.queue.remove(turn);
            }
            finally {
                this.guard.unlock();
            }
            return;
        }
        passOn();
    }

    private void passOn() {
        CompletableFuture<Void> next;
        do {
            this.guard.lock();
            try {
                next = this.queue.poll();
                if (next == null) {
                    this.taken = false;
                    return;
                }
            }
            finally {
                this.guard.unlock();
            }
        }
        while (!next.complete(null));
    }
}
