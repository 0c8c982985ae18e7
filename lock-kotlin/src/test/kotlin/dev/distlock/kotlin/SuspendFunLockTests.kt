package dev.distlock.kotlin

import dev.distlock.core.LockNotAcquiredException
import dev.distlock.core.RedisLockClient
import dev.distlock.spring.annotation.DistributedLock
import dev.distlock.spring.annotation.OnNotAcquired
import dev.distlock.spring.boot.DistributedLockAutoConfiguration
import dev.distlock.testsupport.RedisExtension
import io.lettuce.core.RedisClient
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/** `@DistributedLock` on a `suspend fun`: the lock is held until the coroutine's work is done. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SuspendFunLockTests {

    companion object {
        @JvmField
        @RegisterExtension
        val redis: RedisExtension = RedisExtension.single()
    }

    private val contextRunner = ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration::class.java,
            DistributedLockAutoConfiguration::class.java))
        .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port())

    /** A bean with locked suspend funs; `open` so Spring can proxy it by subclassing. */
    open class Jobs {

        /** Whether the lock key was in Redis after the first suspension. */
        @DistributedLock(name = "kt-job")
        open suspend fun heldAcrossDelay(): Boolean {
            delay(200)
            return redis.connect().use { it.sync().exists("lock:{kt-job}") == 1L }
        }

        @DistributedLock(name = "kt-job")
        open suspend fun failing(): String {
            delay(10)
            throw IllegalStateException("boom")
        }

        @DistributedLock(name = "kt-job")
        open suspend fun parked(entered: CompletableDeferred<Unit>): String {
            entered.complete(Unit)
            awaitCancellation()
        }

        @DistributedLock(name = "kt-job", waitTime = "0", onNotAcquired = OnNotAcquired.SKIP)
        open suspend fun skippedWhenBusy(): String = "ran"
    }

    /** Locked suspend funs with suspend fallbacks, and [parked] to keep their lock busy. */
    open class Fallbacks {

        @DistributedLock(name = "kt-fallback")
        open suspend fun parked(entered: CompletableDeferred<Unit>): String {
            entered.complete(Unit)
            awaitCancellation()
        }

        @DistributedLock(name = "kt-fallback", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
            fallback = "busy")
        open suspend fun work(id: String): String = "ran $id"

        open suspend fun busy(id: String): String {
            delay(10)
            return "busy $id"
        }

        @DistributedLock(name = "kt-fallback", waitTime = "0", onNotAcquired = OnNotAcquired.FALLBACK,
            fallback = "busyBecause")
        open suspend fun workTellingWhy(id: String): String = "ran $id"

        private suspend fun busyBecause(id: String, cause: LockNotAcquiredException): String {
            delay(10)
            return "busy $id after ${cause.waitTime().toMillis()} ms"
        }
    }

    open class PlainFallback {
        @DistributedLock(name = "kt-fallback", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "later")
        open suspend fun work(): String = "ran"

        open fun later(): String = "later"
    }

    open class WrongResultFallback {
        @DistributedLock(name = "kt-fallback", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "later")
        open suspend fun work(): String = "ran"

        open suspend fun later(): Int = 1
    }

    @Test
    fun `the lock is held across a delay in the suspend fun`() {
        contextRunner.withBean(Jobs::class.java).run { context ->
            val held = runBlocking { context.getBean(Jobs::class.java).heldAcrossDelay() }
            assertThat(held).isTrue()
            assertNothingLocked(context)
        }
    }

    @Test
    fun `an exception releases the lock`() {
        contextRunner.withBean(Jobs::class.java).run { context ->
            assertThatExceptionOfType(IllegalStateException::class.java)
                .isThrownBy { runBlocking { context.getBean(Jobs::class.java).failing() } }
                .withMessage("boom")
            assertNothingLocked(context)
        }
    }

    @Test
    fun `cancelling the caller releases the lock and a busy lock is skipped meanwhile`() {
        contextRunner.withBean(Jobs::class.java).run { context ->
            val jobs = context.getBean(Jobs::class.java)
            runBlocking {
                val entered = CompletableDeferred<Unit>()
                val caller = launch { jobs.parked(entered) }
                entered.await()
                assertThat(jobs.skippedWhenBusy()).isNull()
                caller.cancelAndJoin()
            }
            assertNothingLocked(context)
            assertThat(runBlocking { jobs.skippedWhenBusy() }).isEqualTo("ran")
        }
    }

    @Test
    fun `a busy lock calls the suspend fallback, with or without the exception`() {
        contextRunner.withBean(Fallbacks::class.java).run { context ->
            val fallbacks = context.getBean(Fallbacks::class.java)
            assertThat(runBlocking { fallbacks.work("free") }).isEqualTo("ran free")
            runBlocking {
                val entered = CompletableDeferred<Unit>()
                val holder = launch { fallbacks.parked(entered) }
                entered.await()
                assertThat(fallbacks.work("a")).isEqualTo("busy a")
                assertThat(fallbacks.workTellingWhy("b")).isEqualTo("busy b after 0 ms")
                holder.cancelAndJoin()
            }
            assertNothingLocked(context)
            assertThat(runBlocking { fallbacks.workTellingWhy("c") }).isEqualTo("ran c")
        }
    }

    @Test
    fun `a plain fun as the fallback of a suspend fun is refused naming the fix`() {
        contextRunner.withBean(PlainFallback::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure).rootCause()
                .hasMessageContaining("no suspend fun later()")
                .hasMessageContaining("the fallback of a suspend fun must be a suspend fun too")
        }
    }

    @Test
    fun `a suspend fallback whose result does not fit is refused at startup`() {
        contextRunner.withBean(WrongResultFallback::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure).rootCause()
                .hasMessageContaining("its return type java.lang.Integer is not assignable to java.lang.String")
        }
    }

    private fun assertNothingLocked(context: org.springframework.context.ApplicationContext) {
        RedisClient.create(redis.uri()).let { redisClient ->
            try {
                redisClient.connect().use { assertNothingLocked(it.sync(), context.getBean(RedisLockClient::class.java)) }
            }
            finally {
                redisClient.shutdown()
            }
        }
    }
}

private fun RedisExtension.connect() = RedisClient.create(uri()).let { client ->
    object : AutoCloseable {
        val connection = client.connect()
        fun sync() = connection.sync()
        override fun close() {
            connection.close()
            client.shutdown()
        }
    }
}
