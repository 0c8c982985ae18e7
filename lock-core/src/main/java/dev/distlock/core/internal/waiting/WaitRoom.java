package dev.distlock.core.internal.waiting;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the local waiters for one lock name wait: the shared unlock subscription, a wake-up generation that makes a
 * release seen between an attempt and the sleep impossible to miss, and the {@link RacerSlot}.
 *
 * <p>A wake-up message is either {@link #EVERYONE} or the owner token of the one waiter it is meant for (the head of
 * a fair queue); only that waiter is woken early.
 */
public final class WaitRoom {

    /** Message that wakes every waiter of the name. */
    public static final String EVERYONE = "*";

    private record Sleeper(String owner, CompletableFuture<Void> wake) {
    }

    private final String channel;

    private final AtomicLong generation = new AtomicLong();

    private final Queue<Sleeper> sleepers = new ConcurrentLinkedQueue<>();

    private final RacerSlot racer = new RacerSlot();

    private volatile CompletableFuture<Void> subscribed = CompletableFuture.completedFuture(null);

    private final boolean subscribes;

    int references;

    WaitRoom(String channel, boolean subscribes) {
        this.channel = channel;
        this.subscribes = subscribes;
    }

    boolean subscribes() {
        return this.subscribes;
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
     * Completes after {@code nanos}, or earlier on a wake-up for {@code owner}, or at once if any wake-up happened
     * since {@code seenGeneration} was read.
     */
    CompletableFuture<Void> sleep(long seenGeneration, long nanos, String owner) {
        Sleeper sleeper = new Sleeper(owner, new CompletableFuture<>());
        this.sleepers.add(sleeper);
        sleeper.wake().whenComplete((ignored, ex) -> this.sleepers.remove(sleeper));
        if (this.generation.get() != seenGeneration) {
            sleeper.wake().complete(null);
            return sleeper.wake();
        }
        return sleeper.wake().completeOnTimeout(null, nanos, TimeUnit.NANOSECONDS);
    }

    void wakeUp(String message) {
        this.generation.incrementAndGet();
        for (Sleeper sleeper : this.sleepers) {
            if (EVERYONE.equals(message) || sleeper.owner().equals(message)) {
                sleeper.wake().complete(null);
            }
        }
    }
}
