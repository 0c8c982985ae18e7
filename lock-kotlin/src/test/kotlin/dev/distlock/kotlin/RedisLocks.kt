package dev.distlock.kotlin

import dev.distlock.core.RedisLockClient
import io.lettuce.core.api.sync.RedisCommands
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import java.time.Duration

/** The lock keys left in Redis: everything but the fencing counters, which outlive their locks on purpose. */
internal fun RedisCommands<String, String>.lockKeys(): List<String> = keys("*").filterNot { it.endsWith(":fence") }

/** Waits (bounded) until no lock key is left and [client] tracks no lease: releases travel asynchronously. */
internal fun assertNothingLocked(raw: RedisCommands<String, String>, client: RedisLockClient) {
    await().atMost(Duration.ofSeconds(20)).untilAsserted {
        assertThat(raw.lockKeys()).isEmpty()
        assertThat(client.activeLeaseCount()).isZero()
    }
}
