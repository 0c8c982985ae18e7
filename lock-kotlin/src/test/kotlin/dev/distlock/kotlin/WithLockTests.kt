package dev.distlock.kotlin

import dev.distlock.core.LockClientOptions
import dev.distlock.core.LockNotAcquiredException
import dev.distlock.core.LostLeasePolicy
import dev.distlock.core.RedisLockClient
import dev.distlock.core.reactive.ReactiveLockTemplate
import dev.distlock.testsupport.RedisExtension
import io.lettuce.core.RedisClient
import io.lettuce.core.api.StatefulRedisConnection
import io.lettuce.core.api.sync.RedisCommands
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.random.Random
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension

/** [withLock] against a real redis-server: held across suspension, released on every way out, reentrant. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WithLockTests {

    companion object {
        @JvmField
        @RegisterExtension
        val redis: RedisExtension = RedisExtension.single()
    }

    private lateinit var redisClient: RedisClient
    private lateinit var client: RedisLockClient
    private lateinit var connection: StatefulRedisConnection<String, String>
    private lateinit var raw: RedisCommands<String, String>
    private lateinit var template: ReactiveLockTemplate

    @BeforeEach
    fun setUp() {
        redis.flushAll()
        redisClient = RedisClient.create(redis.uri())
        client = RedisLockClient.create(redisClient,
            LockClientOptions.builder().watchdogLease(Duration.ofMillis(1500)).build())
        connection = redisClient.connect()
        raw = connection.sync()
        template = ReactiveLockTemplate(client, Duration.ofSeconds(20), null, LostLeasePolicy.FAIL)
    }

    @AfterEach
    fun tearDown() {
        client.close()
        connection.close()
        redisClient.shutdown()
    }

    @Test
    fun `the lock is held across suspension points and dispatcher switches and released on return`() = runBlocking<Unit> {
        val result = template.withLock("kt") { lease ->
            delay(50)
            val heldOnIo = withContext(Dispatchers.IO) { raw.exists("lock:{kt}") == 1L && lease.isHeld }
            delay(50)
            "held:$heldOnIo"
        }
        assertThat(result).isEqualTo("held:true")
        assertNothingLocked(raw, client)
    }

    @Test
    fun `a null result is returned as null`() = runBlocking<Unit> {
        val result: String? = template.withLock("kt-null") { null }
        assertThat(result).isNull()
        assertNothingLocked(raw, client)
    }

    @Test
    fun `an exception from the block releases the lock and reaches the caller`() = runBlocking<Unit> {
        assertThatExceptionOfType(IllegalStateException::class.java).isThrownBy {
            runBlocking { template.withLock<Unit>("kt-boom") { delay(10); throw IllegalStateException("boom") } }
        }.withMessage("boom")
        assertNothingLocked(raw, client)
    }

    @Test
    fun `nested withLock of the same name in one coroutine reenters the outer lease`() = runBlocking<Unit> {
        val tokens = template.withLock("kt-nested") { outer ->
            delay(10)
            // zero wait: acquiring again instead of reentering would fail at once
            val inner = template.withLock("kt-nested", Duration.ZERO) { inner -> delay(10); inner.fencingToken() }
            outer.fencingToken() to inner
        }
        assertThat(tokens.second).isEqualTo(tokens.first)
        assertNothingLocked(raw, client)
    }

    @Test
    fun `another coroutine waits for the lock instead of reentering it`() = runBlocking<Unit> {
        val entered = CompletableDeferred<Unit>()
        val holder = launch { template.withLock("kt-busy") { entered.complete(Unit); awaitCancellation() } }
        entered.await()
        assertThatExceptionOfType(LockNotAcquiredException::class.java).isThrownBy {
            runBlocking { template.withLock("kt-busy", Duration.ofMillis(100)) { } }
        }
        holder.cancelAndJoin()
        assertNothingLocked(raw, client)
    }

    @Test
    fun `cancelling the coroutine at any step leaves nothing locked`() = runBlocking<Unit> {
        val entered = AtomicInteger()
        val finished = AtomicInteger()
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        var iterations = 0
        while (iterations < 1000 && System.nanoTime() < deadline) {
            iterations++
            val job = launch(Dispatchers.Default, CoroutineStart.UNDISPATCHED) {
                template.withLock("kt-cancel-${iterations % 4}") {
                    entered.incrementAndGet()
                    delay(Random.nextLong(0, 3))
                    finished.incrementAndGet()
                }
            }
            // before the grant (no yield), racing it, or during the block
            repeat(Random.nextInt(0, 40)) { yield() }
            if (Random.nextBoolean()) {
                delay(Random.nextLong(0, 3))
            }
            job.cancelAndJoin()
        }
        assertNothingLocked(raw, client)
        println("cancel loop: $iterations iterations, ${entered.get()} entered the block, ${finished.get()} finished")
        assertThat(entered.get()).isPositive().isLessThan(iterations)
    }

    @Test
    fun `cancelling a coroutine that waits for a busy lock leaves nothing locked`() = runBlocking<Unit> {
        val entered = CompletableDeferred<Unit>()
        val holder = launch { template.withLock("kt-wait") { entered.complete(Unit); awaitCancellation() } }
        entered.await()
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        var iterations = 0
        while (iterations < 200 && System.nanoTime() < deadline) {
            iterations++
            val waiter = launch(Dispatchers.Default) { template.withLock("kt-wait") { error("entered a held lock") } }
            delay(Random.nextLong(0, 5))
            waiter.cancelAndJoin()
        }
        assertThat(raw.exists("lock:{kt-wait}")).isOne()
        holder.cancelAndJoin()
        assertNothingLocked(raw, client)
        // the lock is free for the next one
        assertThat(template.withLock("kt-wait", Duration.ZERO) { "free" }).isEqualTo("free")
    }
}
