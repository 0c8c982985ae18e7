package dev.distlock.core.internal.protocol;

/**
 * Keys of one read/write lock, all under the lock name's hash tag.
 *
 * @param names the lock's base keys (fence key and channel are shared with them)
 * @param writeKey string holding the writer's owner token
 * @param readersKey sorted set of reader owner tokens by expiry
 * @param writerQueueKey list of queued writers in arrival order (writer preference: they keep new readers out)
 */
public record ReadWriteKeys(LockKeys names, String writeKey, String readersKey, String writerQueueKey) {

    public static ReadWriteKeys of(LockKeys names) {
        return new ReadWriteKeys(names, names.lockKey() + ":write", names.lockKey() + ":read",
                names.lockKey() + ":write:queue");
    }

    String readHoldKey() {
        return this.readersKey;
    }

    String writeHoldKey() {
        return this.writeKey;
    }
}
