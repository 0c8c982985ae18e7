package dev.distlock.sample;

import dev.distlock.testsupport.RedisServer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Logs, once the application is ready, where it listens, the {@code curl} that shows the demo, and which Redis it
 * uses, with the arguments a second instance needs to share the locks of an embedded Redis.
 */
@Component
public class StartupHints implements ApplicationListener<ApplicationReadyEvent> {

    private static final Logger log = LoggerFactory.getLogger(StartupHints.class);

    private final Environment environment;

    private final ObjectProvider<RedisServer> embeddedRedis;

    /**
     * @param environment to read the server port and the Redis address
     * @param embeddedRedis the server {@link EmbeddedRedisInitializer} started, if it did
     */
    public StartupHints(Environment environment, ObjectProvider<RedisServer> embeddedRedis) {
        this.environment = environment;
        this.embeddedRedis = embeddedRedis;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        String port = this.environment.getProperty("local.server.port",
                this.environment.getProperty("server.port", "8080"));
        RedisServer server = this.embeddedRedis.getIfAvailable();
        log.info("""

                ==> distlock sample ready on http://localhost:{}. Try:
                ==>   curl -s -X POST 'localhost:{}/demo/oversell?buyers=50&stock=10&format=text'
                ==> {}""", port, port, redisHint(server));
    }

    private String redisHint(@Nullable RedisServer server) {
        if (server == null) {
            return "Redis: " + EmbeddedRedisInitializer.describe(this.environment) + " (from spring.data.redis.*)";
        }
        return "Redis: embedded redis-server on " + server.host() + ":" + server.port()
                + ". A second instance shares its locks when started with:"
                + " --spring.data.redis.port=" + server.port() + " --server.port=8081";
    }
}
