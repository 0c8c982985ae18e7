package dev.distlock.reliability;

import dev.distlock.core.RedisLock;
import dev.distlock.core.RedisLockClient;

/** The lock kinds whose waiters queue in Redis and are handed the lock by a release, with their raw keys. */
enum QueuedKind {

    /** The reentrant (default) lock; the fair lock is the same queued lock. */
    REENTRANT("reentrant", ""),

    /** The write lock of a read/write lock: writers queue next to the write key. */
    WRITE("write", ":write");

    private final String word;

    private final String suffix;

    QueuedKind(String word, String suffix) {
        this.word = word;
        this.suffix = suffix;
    }

    /** The kind as {@link WorkerMain}'s {@code acquire} command names it. */
    String word() {
        return this.word;
    }

    RedisLock lock(RedisLockClient client, String name) {
        return (this == WRITE) ? client.getReadWriteLock(name).writeLock() : client.getLock(name);
    }

    /** The key that stores the holder's owner token (default key prefix {@code lock:}). */
    String holdKey(String name) {
        return "lock:{" + name + "}" + this.suffix;
    }

    /** The queue of waiters: entries {@code owner|leaseMs|deadlineMs|channel}, oldest first. */
    String queueKey(String name) {
        return holdKey(name) + ":queue";
    }

    /** The owner token of a queue entry. */
    static String ownerOf(String entry) {
        return entry.substring(0, entry.indexOf('|'));
    }

    /** The owner of a stored hold ({@code owner|token}, the value of a lock or write key); "" stays "". */
    static String ownerOfHold(String hold) {
        int bar = hold.lastIndexOf('|');
        return (bar < 0) ? hold : hold.substring(0, bar);
    }

    /** The wake channel of a queue entry (its client listens there while it waits). */
    static String channelOf(String entry) {
        return entry.substring(entry.lastIndexOf('|') + 1);
    }
}
