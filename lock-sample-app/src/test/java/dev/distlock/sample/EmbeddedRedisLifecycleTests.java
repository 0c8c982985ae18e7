package dev.distlock.sample;

import java.time.Duration;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application brings its own redis-server when no Redis is configured, stops it when it stops, and starts none
 * when one is configured.
 */
@Timeout(60)
class EmbeddedRedisLifecycleTests {

    @Test
    void startsARedisServerWhenNoneIsConfiguredAndStopsItWithTheApplication() {
        long pid;
        try (ConfigurableApplicationContext app = start()) {
            RedisServer server = app.getBean(EmbeddedRedisInitializer.BEAN_NAME, RedisServer.class);
            assertThat(server.isRunning()).isTrue();
            pid = server.pid();
            assertThat(app.getEnvironment().getProperty("spring.data.redis.port", Integer.class))
                .isEqualTo(server.port());

            app.getBean(StockStore.class).reset("lifecycle", 1);
            assertThat(app.getBean(ReservationService.class).reserve("lifecycle", "alice").outcome())
                .isEqualTo(Reservation.Outcome.RESERVED);
        }
        // stopping waits for the process to exit; the bound only guards against a slow kernel
        await().atMost(Duration.ofSeconds(10))
            .until(() -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), (alive) -> !alive);
    }

    @Test
    void usesTheConfiguredRedisAndStartsNone() {
        try (RedisServer external = RedisServer.start();
                ConfigurableApplicationContext app = start("--spring.data.redis.host=" + external.host(),
                        "--spring.data.redis.port=" + external.port())) {
            assertThat(app.containsBean(EmbeddedRedisInitializer.BEAN_NAME)).isFalse();

            app.getBean(StockStore.class).reset("external", 2);
            app.getBean(ReservationService.class).reserveWithTemplate("external", "bob");

            RedisClient client = RedisClient.create(external.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                assertThat(connection.sync().hget("sample:item:{external}", "stock")).isEqualTo("1");
            }
            finally {
                client.shutdown();
            }
        }
    }

    @Test
    void startsOneAnywayWhenForcedEvenWithAConfiguredAddress() {
        try (ConfigurableApplicationContext app = start("--spring.data.redis.host=redis.invalid",
                "--" + EmbeddedRedisInitializer.ENABLED_PROPERTY + "=true")) {
            RedisServer server = app.getBean(EmbeddedRedisInitializer.BEAN_NAME, RedisServer.class);
            assertThat(app.getEnvironment().getProperty("spring.data.redis.host")).isEqualTo(server.host());
        }
    }

    @Test
    void startsNoServerWhileTheBuildProcessesTheApplicationAheadOfTime() {
        String previous = System.setProperty(AbstractAotProcessor.AOT_PROCESSING, "true");
        GenericApplicationContext context = new GenericApplicationContext();
        try {
            new EmbeddedRedisInitializer().initialize(context);

            assertThat(context.getBeanFactory().containsSingleton(EmbeddedRedisInitializer.BEAN_NAME)).isFalse();
            assertThat(context.getEnvironment().containsProperty("spring.data.redis.url")).isFalse();
        }
        finally {
            // the context was never refreshed, so closing it would not stop a server the initializer started
            if (context.getBeanFactory().getSingleton(EmbeddedRedisInitializer.BEAN_NAME) instanceof RedisServer s) {
                s.stop();
            }
            if (previous == null) {
                System.clearProperty(AbstractAotProcessor.AOT_PROCESSING);
            }
            else {
                System.setProperty(AbstractAotProcessor.AOT_PROCESSING, previous);
            }
        }
    }

    static ConfigurableApplicationContext start(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "--server.port=0";
        System.arraycopy(args, 0, all, 1, args.length);
        // main: the class a real start runs from; in AOT mode it names the generated initializer to use
        return new SpringApplicationBuilder(SampleApplication.class).main(SampleApplication.class).run(all);
    }
}
