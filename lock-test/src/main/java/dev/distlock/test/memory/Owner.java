package dev.distlock.test.memory;

import org.jspecify.annotations.Nullable;

/**
 * Who holds or waits: a thread of one client (reentrant per thread, like the Redis client's blocking methods), or one
 * asynchronous acquisition (never reentrant).
 *
 * @param clientId the client, unique in its store
 * @param instanceId the client's instance id, named in "held by" messages
 * @param thread the acquiring thread, or null for an asynchronous acquisition
 * @param attempt unique per asynchronous acquisition, 0 for threads
 */
record Owner(int clientId, String instanceId, @Nullable Thread thread, long attempt) {
}
