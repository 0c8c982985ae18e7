package dev.distlock.core.internal.protocol;

/**
 * Keys of one semaphore, all under its name's hash tag (the fence counter and the channel are the name's own).
 *
 * @param names the name's base keys
 * @param permitsKey sorted set of the permits held, {@code 'owner|token'} by lease expiry
 * @param countKey string holding how many permits the semaphore has
 * @param waitersKey sorted set of queued owners by arrival
 * @param waiterDeadlinesKey sorted set of queued owners by the time they must ask again to keep their place
 */
public record SemaphoreKeys(LockKeys names, String permitsKey, String countKey, String waitersKey,
        String waiterDeadlinesKey) {

    public static SemaphoreKeys of(LockKeys names) {
        String base = names.lockKey() + ":permits";
        return new SemaphoreKeys(names, base, base + ":count", base + ":waiters", base + ":waiters:deadlines");
    }
}
