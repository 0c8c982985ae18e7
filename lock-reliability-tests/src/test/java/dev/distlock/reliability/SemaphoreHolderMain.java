package dev.distlock.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.distlock.core.LockClientOptions;
import dev.distlock.core.LockLease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.RedisLockClient;
import dev.distlock.core.RedisSemaphore;
import dev.distlock.testsupport.LockEvent;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;

/**
 * A process that takes permits of one semaphore in a loop, reporting {@link LockEvent} lines on stdout: {@code OK}
 * with the fencing token when granted, {@code LOST} when a permit's loss listener fires, {@code RELEASED} or
 * {@code RELEASE_FAIL} when it returns the permit, {@code FAIL} when an acquire failed. Its instance id is its name.
 *
 * <p>Arguments ({@code key=value}): {@code name}, {@code uri}, {@code semaphore}, {@code permits}, {@code holdMs}
 * (how long it holds each permit). Command: {@code exit}.
 */
public final class SemaphoreHolderMain {

    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
            false, StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        String name = options.get("name");
        String semaphoreName = options.get("semaphore");
        long holdMs = Long.parseLong(options.get("holdMs"));
        ClientResources resources = DefaultClientResources.builder()
            .reconnectDelay(RedisLockClient.recommendedReconnectDelay()).build();
        RedisClient redis = RedisClient.create(resources, RedisURI.create(options.get("uri")));
        LockClientOptions lockOptions = Clients.fastOptions().instanceId(name).build();
        RedisLockClient client = RedisLockClient.create(redis, lockOptions);
        RedisSemaphore semaphore = client.getSemaphore(semaphoreName, Integer.parseInt(options.get("permits")));
        Thread loop = new Thread(() -> takePermits(name, semaphore, holdMs), "permit-loop");
        loop.setDaemon(true);
        loop.start();
        emit(LockEvent.now(name, LockEvent.Type.NOTE, semaphoreName, 0, "ready pid=" + ProcessHandle.current().pid()));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.trim().equals("exit")) {
                break;
            }
        }
        System.exit(0);
    }

    private static void takePermits(String name, RedisSemaphore semaphore, long holdMs) {
        while (true) {
            LockLease permit;
            try {
                permit = semaphore.acquire(Duration.ofSeconds(60));
            }
            catch (InterruptedException ex) {
                return;
            }
            catch (RuntimeException ex) {
                emit(LockEvent.now(name, LockEvent.Type.FAIL, semaphore.name(), 0, String.valueOf(ex)));
                sleep(100);
                continue;
            }
            long token = permit.fencingToken();
            emit(LockEvent.now(name, LockEvent.Type.OK, semaphore.name(), token, "granted"));
            permit.addLossListener((loss) -> emit(LockEvent.now(name, LockEvent.Type.LOST, semaphore.name(), token,
                    String.valueOf(loss.reason()))));
            sleep(holdMs);
            try {
                permit.close();
                emit(LockEvent.now(name, LockEvent.Type.RELEASED, semaphore.name(), token, ""));
            }
            catch (LockLostException | dev.distlock.core.LockOperationException ex) {
                emit(LockEvent.now(name, LockEvent.Type.RELEASE_FAIL, semaphore.name(), token,
                        ex.getClass().getSimpleName()));
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    static void emit(LockEvent event) {
        synchronized (OUT) {
            OUT.println(event.toLine());
            OUT.flush();
        }
    }
}
