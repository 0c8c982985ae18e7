package dev.distlock.core.internal;

/**
 * Keys of one read/write lock, all under the lock name's hash tag.
 *
 * @param names the lock's base keys (fence key and channel are shared with them)
 * @param writeKey string holding the writer's owner token
 * @param readersKey sorted set of reader owner tokens by expiry
 * @param waitingWritersKey sorted set of waiting writers by deadline (writer preference)
 */
record ReadWriteKeys(LockKeys names, String writeKey, String readersKey, String waitingWritersKey) {

    static ReadWriteKeys of(LockKeys names) {
        return new ReadWriteKeys(names, names.lockKey() + ":write", names.lockKey() + ":read",
                names.lockKey() + ":wwait");
    }

    String readHoldKey() {
        return this.readersKey;
    }

    String writeHoldKey() {
        return this.writeKey;
    }
}
