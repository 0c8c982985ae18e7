package dev.distlock.core;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocking locks on virtual threads: ownership is per virtual thread, and nothing on the acquire, release or renew
 * paths holds a monitor ({@code synchronized}) around I/O or a wait, which would pin the carrier thread on Java 21-23.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualThreadTests extends RedisLockTest {

    private static final Pattern SYNCHRONIZED = Pattern.compile("\\bsynchronized\\b");

    private RedisLockClient client;

    @BeforeEach
    void setUp() throws Exception {
        this.client = this.clients.create();
    }

    @Test
    void noMonitorsInLockCore() throws IOException {
        // Every class of lock-core is on some acquire, release or renew path (protocols, waiting, holds, watchdog,
        // gateway), so the whole main source tree is checked; a monitor there would pin virtual threads.
        Path sources = Paths.get("src", "main", "java");
        assertThat(sources).isDirectory();
        List<String> offenders = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : (Iterable<Path>) files.filter((path) -> path.toString().endsWith(".java"))::iterator) {
                scanned++;
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String code = lines.get(i).replaceAll("//.*$", "");
                    String trimmed = code.trim();
                    if (trimmed.startsWith("*") || trimmed.startsWith("/*")) {
                        continue;
                    }
                    if (SYNCHRONIZED.matcher(code).find()) {
                        offenders.add(file + ":" + (i + 1) + ": " + trimmed);
                    }
                }
            }
        }
        assertThat(scanned).isGreaterThan(30);
        assertThat(offenders).as("synchronized pins virtual threads; use a ReentrantLock").isEmpty();
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void blockingAcquireOnVirtualThreadsExcludesAndOwnsPerThread() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
        try {
            List<Future<?>> sections = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                sections.add(virtualThreads.submit(() -> {
                    RedisLock lock = this.client.getLock("vt");
                    try (LockLease lease = lock.acquire(Duration.ofSeconds(60))) {
                        assertThat(lock.isHeldByCurrentThread()).isTrue();
                        maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.sleep(2);
                        inside.decrementAndGet();
                    }
                    done.incrementAndGet();
                    return null;
                }));
            }
            for (Future<?> section : sections) {
                section.get(90, TimeUnit.SECONDS);
            }
            // Ownership per virtual thread: one holds, another (virtual) thread neither owns it nor gets it.
            try (LockLease held = this.client.getLock("vt-owner").acquire(Duration.ofSeconds(5))) {
                Future<Optional<LockLease>> other = virtualThreads.submit(() -> {
                    RedisLock lock = this.client.getLock("vt-owner");
                    assertThat(lock.isHeldByCurrentThread()).isFalse();
                    return lock.tryAcquire(Duration.ZERO);
                });
                assertThat(other.get(30, TimeUnit.SECONDS)).isEmpty();
                assertThat(held.isHeld()).isTrue();
            }
        }
        finally {
            virtualThreads.shutdownNow();
            assertThat(virtualThreads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(done).hasValue(50);
        assertThat(maxInside).hasValue(1);
        assertThat(this.client.activeLeaseCount()).isZero();
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        }
        catch (InvocationTargetException ex) {
            throw new IllegalStateException(ex.getCause());
        }
    }
}
