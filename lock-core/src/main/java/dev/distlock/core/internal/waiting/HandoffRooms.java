package dev.distlock.core.internal.waiting;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import dev.distlock.core.internal.protocol.OperationTimeouts;
import dev.distlock.core.internal.redis.RedisGateway;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This client's wake channels of queued locks, one per lock name it waits on, and the local waiters expecting a
 * handoff there. The first waiter of a name subscribes; the subscription lingers for a while after the last one
 * leaves, so a client that contends for the same name again can queue with its first attempt (a waiter is only
 * queued once its client listens, or the handoff would find nobody and skip it).
 *
 * <p>An announcement for an owner that no local waiter expects is released at once (owner-checked), so the lock
 * moves on instead of staying with nobody for a whole lease: its waiter gave up, or its acquisition failed in a way
 * whose clean-up did not reach this master (a failover). The one exception is a waiter that learned of its grant
 * from a check before the announcement arrived: it is marked settled, and its late announcement is ignored.
 */
public final class HandoffRooms implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(HandoffRooms.class);

    private final RedisGateway gateway;

    private final ScheduledExecutorService scheduler;

    private final long lingerNanos;

    private final OperationTimeouts subscribeTimeouts;

    private final ConcurrentMap<String, Room> rooms = new ConcurrentHashMap<>();

    /** How long a late announcement of a grant learned from a check is ignored. */
    private static final long SETTLED_NANOS = TimeUnit.SECONDS.toNanos(60);

    /**
     * @param lingerNanos how long an empty room stays subscribed
     * @param subscribeTimeouts how long a room waits for its subscription to be confirmed (the operation timeout):
     * after that its waiters queue anyway and rely on their checks, as after a failed subscription. Timed on the
     * client's wheel timer, whose cancel never blocks: the subscription is confirmed on a Redis event-loop thread.
     */
    public HandoffRooms(RedisGateway gateway, ScheduledExecutorService scheduler, long lingerNanos,
            OperationTimeouts subscribeTimeouts) {
        this.gateway = gateway;
        this.scheduler = scheduler;
        this.lingerNanos = lingerNanos;
        this.subscribeTimeouts = subscribeTimeouts;
    }

    /** A local waiter expecting a handoff. */
    interface Waiter {

        /** The lock was handed to this waiter's owner. */
        void handedOver(Handoff handoff);

        /** The client is closing: the waiter must complete now, as nobody will wake it. */
        void clientClosed();

        /** This waiter is now the one of its room that checks on the queue (the one ahead left). */
        void becameChecker();
    }

    /** One wake channel: its subscription and the owners expecting a handoff on it. */
    static final class Room {

        private final String channel;

        private final Map<String, Waiter> waiters = new ConcurrentHashMap<>();

        private final Map<String, Long> positions = new ConcurrentHashMap<>();

        /** Owners granted by a check while their announcement may still be on its way, until when to ignore it. */
        private final Map<String, Long> settled = new ConcurrentHashMap<>();

        private CompletableFuture<Void> subscribed = new CompletableFuture<>();

        private @Nullable ScheduledFuture<?> unsubscribe;

        private volatile int references;

        private final Consumer<String> orphanReleaser;

        Room(String channel, Consumer<String> orphanReleaser) {
            this.channel = channel;
            this.orphanReleaser = orphanReleaser;
        }

        /** Completes (normally, also on failure) once the subscription was confirmed, failed or timed out. */
        CompletableFuture<Void> subscribedOrFailed() {
            return this.subscribed.handle((ignored, ex) -> null);
        }

        void expect(String owner, Waiter waiter) {
            this.waiters.put(owner, waiter);
        }

        /**
         * Records where a local waiter stands and tells whether it is the room's checker: the local waiter furthest
         * ahead in the queue. Only the checker checks on the queue; the others of this client are behind it, so none
         * of them can be handed the lock before it, and a long local queue costs one check per back-off step.
         */
        boolean standsAt(String owner, long position) {
            this.positions.put(owner, position);
            return owner.equals(checker());
        }

        /**
         * Takes back a place {@link #standsAt} recorded for an owner no longer expected here: one forgotten (granted,
         * given up) or announced while its queueing reply was on its way, whose place would otherwise outlive it, so
         * that this client's other waiters counted on a checker that never checks. Call it after {@code standsAt},
         * outside any lock of the waiter's: a forget() on another thread then either sees the place or is seen here.
         * It may tell the next waiter it checks now ({@link Waiter#becameChecker}).
         */
        void dropIfGone(String owner) {
            if (!this.waiters.containsKey(owner) && this.positions.containsKey(owner)) {
                dropPlace(owner);
            }
        }

        /** Whether a waiter of this client stands in the queue (its attempt was queued, and it still waits). */
        boolean isQueued() {
            return !this.positions.isEmpty();
        }

        /** The owner learned of its grant from a check: ignore its announcement if it still comes. */
        void settle(String owner) {
            long now = System.nanoTime();
            this.settled.values().removeIf((until) -> until - now < 0);
            this.settled.put(owner, now + SETTLED_NANOS);
        }

        void forget(String owner) {
            this.waiters.remove(owner);
            dropPlace(owner);
        }

        /** Removes the owner's place; if it was the checker, the waiter now furthest ahead becomes the checker. */
        private void dropPlace(String owner) {
            boolean wasChecker = owner.equals(checker());
            this.positions.remove(owner);
            if (wasChecker) {
                String next = checker();
                Waiter waiter = (next != null) ? this.waiters.get(next) : null;
                if (waiter != null) {
                    waiter.becameChecker();
                }
            }
        }

        private @Nullable String checker() {
            return this.positions.entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse(null);
        }
    }

    /** Whether this client has a room on the channel: it waits there, or did a moment ago and still listens. */
    boolean hasRoom(String channel) {
        return this.rooms.containsKey(channel);
    }

    /** Enters the room of a channel, subscribing if nobody of this client listens there yet. */
    Room enter(String channel, Consumer<String> orphanReleaser) {
        return this.rooms.compute(channel, (key, existing) -> {
            Room room = (existing != null) ? existing : new Room(channel, orphanReleaser);
            room.references++;
            if (room.unsubscribe != null) {
                room.unsubscribe.cancel(false);
                room.unsubscribe = null;
            }
            if (existing == null) {
                // Bounded: a pub/sub connection that is down or silent would otherwise keep the room unconfirmed.
                CompletableFuture<Void> confirmed = this.subscribeTimeouts.apply(room.subscribed);
                confirmed.whenComplete((ignored, ex) -> {
                    if (ex instanceof TimeoutException) {
                        logger.debug("Subscribing to {} was not confirmed within the operation timeout; waiters there "
                                + "rely on their back-off", channel);
                    }
                });
                this.gateway.subscribe(channel).whenComplete((ignored, ex) -> {
                    if (ex != null) {
                        logger.debug("Subscribing to {} failed; waiters there rely on their back-off", channel, ex);
                        confirmed.completeExceptionally(ex);
                    }
                    else {
                        confirmed.complete(null);
                    }
                });
            }
            return room;
        });
    }

    /** Leaves a room; the subscription of an empty room is dropped after the linger time. */
    void leave(Room room) {
        this.rooms.computeIfPresent(room.channel, (key, current) -> {
            if (current != room || --current.references > 0) {
                return current;
            }
            try {
                current.unsubscribe = this.scheduler.schedule(() -> dropIfIdle(current), this.lingerNanos,
                        TimeUnit.NANOSECONDS);
                return current;
            }
            catch (RejectedExecutionException closing) {
                return null;
            }
        });
    }

    private void dropIfIdle(Room room) {
        this.rooms.computeIfPresent(room.channel, (key, current) -> {
            if (current != room || current.references > 0) {
                return current;
            }
            this.gateway.unsubscribe(key);
            return null;
        });
    }

    /**
     * Whether a waiter of this client stands in the queue behind the lock of this wake channel (its attempt was
     * queued). Then the lock's hold no longer reads as {@code take.lua} wrote it, so its holder releases with the
     * handoff at once instead of trying the compare-and-delete of an untouched hold first.
     */
    public boolean queuedOn(String channel) {
        Room room = this.rooms.get(channel);
        return room != null && room.isQueued();
    }

    /** Delivers a message of a wake channel; false when the channel is not one of these rooms. */
    public boolean deliver(String channel, String message) {
        Room room = this.rooms.get(channel);
        if (room == null) {
            return false;
        }
        Handoff handoff = Handoff.parse(message);
        if (handoff == null) {
            return true;
        }
        Waiter waiter = room.waiters.remove(handoff.owner());
        if (waiter != null) {
            waiter.handedOver(handoff);
        }
        else if (room.settled.remove(handoff.owner()) == null) {
            logger.debug("Lock on {} was handed to owner {}, which no longer waits; releasing it", channel,
                    handoff.owner());
            room.orphanReleaser.accept(handoff.owner());
        }
        return true;
    }

    /** Number of channels with waiters now (lingering subscriptions not counted). */
    public int activeRooms() {
        return (int) this.rooms.values().stream().filter((room) -> room.references > 0).count();
    }

    @Override
    public void close() {
        for (Room room : this.rooms.values()) {
            room.waiters.values().forEach(Waiter::clientClosed);
        }
        this.rooms.clear();
    }
}
