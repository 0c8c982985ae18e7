package dev.distlock.core.internal;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the local waiters for one lock name wait: the shared unlock subscription, a wake-up generation that makes a
 * release seen between an attempt and the sleep impossible to miss, and the {@link RacerSlot}.
 */
final class WaitRoom {

    private final String channel;

    private final AtomicLong generation = new AtomicLong();

    private final Queue<CompletableFuture<Void>> sleepers = new ConcurrentLinkedQueue<>();

    private final RacerSlot racer = new RacerSlot();

    private volatile CompletableFuture<Void> subscribed = CompletableFuture.completedFuture(null);

    int references;

    WaitRoom(String channel) {
        this.channel = channel;
    }

    String channel() {
        return this.channel;
    }

    RacerSlot racer() {
        return this.racer;
    }

    CompletableFuture<Void> subscribed() {
        return this.subscribed;
    }

    void subscribed(CompletableFuture<Void> subscription) {
        this.subscribed = subscription;
    }

    /** The current wake-up generation; read it before an attempt and pass it to {@link #sleep}. */
    long generation() {
        return this.generation.get();
    }

    /**
     * Completes after {@code nanos}, or earlier on a wake-up, or at once if a wake-up happened since
     * {@code seenGeneration} was read.
     */
    CompletableFuture<Void> sleep(long seenGeneration, long nanos) {
        CompletableFuture<Void> sleeper = new CompletableFuture<>();
        this.sleepers.add(sleeper);
        sleeper.whenComplete((ignored, ex) -> this.sleepers.remove(sleeper));
        if (this.generation.get() != seenGeneration) {
            sleeper.complete(null);
            return sleeper;
        }
        return sleeper.completeOnTimeout(null, nanos, TimeUnit.NANOSECONDS);
    }

    void wakeUp() {
        this.generation.incrementAndGet();
        CompletableFuture<Void> sleeper;
        while ((sleeper = this.sleepers.poll()) != null) {
            sleeper.complete(null);
        }
    }
}
