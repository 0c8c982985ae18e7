package dev.distlock.reliability;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.spring.boot.LeaderElectionAutoConfiguration;
import dev.distlock.spring.leader.LeaderCandidate;
import dev.distlock.spring.leader.LeaderElections;
import dev.distlock.spring.leader.LeadershipContext;
import dev.distlock.testsupport.LockEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring Boot application in its own JVM that competes to lead a group with the starter's leader election,
 * reporting {@link LockEvent} lines on stdout: {@code OK} when granted (token = epoch), {@code LOST} when revoked, and,
 * while it leads, a {@code NOTE work} line every 50 ms from its leader work, which checks
 * {@link LeadershipContext#isLeader()} first as a leader's work should.
 *
 * <p>Arguments ({@code key=value}): {@code name} (also the instance id), {@code uri}, {@code group}, {@code leaseMs}.
 * Commands: {@code status} (NOTE {@code status leader=...}), {@code exit} (closes the application, which gives
 * leadership up, then exits).
 */
public final class LeaderCandidateMain {

    private static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
            false, StandardCharsets.UTF_8);

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        String name = options.get("name");
        String group = options.get("group");
        ConfigurableApplicationContext app = new SpringApplicationBuilder(CandidateApplication.class)
            .web(WebApplicationType.NONE)
            .properties("spring.main.banner-mode=off", "spring.main.log-startup-info=false",
                    "distributed-lock.redis.url=" + options.get("uri"), "distributed-lock.instance-id=" + name,
                    "distributed-lock.lease-time=" + options.getOrDefault("leaseMs", "1500") + "ms",
                    "distributed-lock.operation-timeout=1s", "distributed-lock.max-backoff=500ms",
                    "distributed-lock.leader.group=" + group)
            .initializers((context) -> context.getBeanFactory().registerSingleton("candidate", new Reporting(name)))
            .run();
        emit(LockEvent.now(name, LockEvent.Type.NOTE, group, 0, "ready pid=" + ProcessHandle.current().pid()));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String command = line.trim();
            if (command.equals("exit")) {
                break;
            }
            if (command.equals("status")) {
                emit(LockEvent.now(name, LockEvent.Type.NOTE, group, 0, "status leader="
                        + app.getBean(LeaderElections.class).isLeader(group)));
            }
        }
        app.close();
        System.exit(0);
    }

    static void emit(LockEvent event) {
        synchronized (OUT) {
            OUT.println(event.toLine());
            OUT.flush();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ DistributedLockAutoConfiguration.class, LeaderElectionAutoConfiguration.class })
    static class CandidateApplication {

    }

    /** Reports its callbacks and does "leader work" while it leads. */
    static final class Reporting implements LeaderCandidate {

        private final String name;

        private @Nullable ScheduledExecutorService work;

        Reporting(String name) {
            this.name = name;
        }

        @Override
        public void onGranted(LeadershipContext context) {
            emit(LockEvent.now(this.name, LockEvent.Type.OK, context.group(), context.epoch(), "granted"));
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
            executor.scheduleWithFixedDelay(() -> {
                if (context.isLeader()) {
                    emit(LockEvent.now(this.name, LockEvent.Type.NOTE, context.group(), context.epoch(), "work"));
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
            this.work = executor;
        }

        @Override
        public void onRevoked(LeadershipContext context) {
            if (this.work != null) {
                this.work.shutdownNow();
            }
            emit(LockEvent.now(this.name, LockEvent.Type.LOST, context.group(), context.epoch(), "revoked"));
        }
    }
}
