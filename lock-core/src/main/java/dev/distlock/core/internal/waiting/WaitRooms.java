package dev.distlock.core.internal.waiting;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.distlock.core.internal.protocol.LocalWakeUps;
import dev.distlock.core.internal.redis.RedisGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reference-counted {@link WaitRoom}s by unlock channel: the first waiter on a name subscribes to its channel, the
 * last one out unsubscribes. Subscribe and unsubscribe are issued inside the map's atomic update, so their order on
 * the pub/sub connection follows the reference count.
 */
public final class WaitRooms implements LocalWakeUps {

    private static final Logger logger = LoggerFactory.getLogger(WaitRooms.class);

    private final RedisGateway gateway;

    private final ConcurrentMap<String, WaitRoom> rooms = new ConcurrentHashMap<>();

    public WaitRooms(RedisGateway gateway) {
        this.gateway = gateway;
    }

    WaitRoom enter(String channel, boolean subscribe) {
        return this.rooms.compute(channel, (key, room) -> {
            WaitRoom entered = (room != null) ? room : new WaitRoom(channel, subscribe);
            if (entered.references++ == 0 && subscribe) {
                entered.subscribed(this.gateway.subscribe(channel).whenComplete((ignored, ex) -> {
                    if (ex != null) {
                        logger.debug("Subscribing to {} failed; waiters fall back to their back-off", channel, ex);
                    }
                }));
            }
            return entered;
        });
    }

    void leave(WaitRoom room) {
        this.rooms.computeIfPresent(room.channel(), (key, current) -> {
            if (--current.references > 0) {
                return current;
            }
            if (current.subscribes()) {
                this.gateway.unsubscribe(key);
            }
            return null;
        });
    }

    /** Wakes local waiters on a channel: on a pub/sub message, and directly on a local release. */
    public void wakeUp(String channel, String message) {
        WaitRoom room = this.rooms.get(channel);
        if (room != null) {
            room.wakeUp(message);
        }
    }

    @Override
    public void wakeEveryone(String channel) {
        wakeUp(channel, WaitRoom.EVERYONE);
    }

    public int activeRooms() {
        return this.rooms.size();
    }

    CompletableFuture<Void> subscribedOrDone(WaitRoom room) {
        return room.subscribed().handle((ignored, ex) -> null);
    }
}
