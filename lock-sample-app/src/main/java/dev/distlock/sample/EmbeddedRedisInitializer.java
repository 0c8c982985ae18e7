package dev.distlock.sample;

import java.util.List;
import java.util.Map;

import dev.distlock.testsupport.RedisBinary;
import dev.distlock.testsupport.RedisServer;
import dev.distlock.testsupport.RedisServerOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts a {@code redis-server} (the binary bundled with {@code org.signal:embedded-redis}, the one the tests use)
 * when the application has no Redis configured, so that a fresh clone runs with nothing but a JDK.
 *
 * <p>It runs before any bean is created: it starts the server on a free loopback port, adds
 * {@code spring.data.redis.url}, {@code host} and {@code port} for it as the highest-priority property source,
 * and registers the server as the bean {@value #BEAN_NAME}. The server is stopped after every other bean has been
 * destroyed when the context closes (also when startup fails), so the lock client and Lettuce disconnect before it
 * goes, and killed by a JVM shutdown hook if the context has not stopped it within 5 s of the JVM's shutdown. It runs
 * in a session of its own (where {@code setsid} is installed), so a Ctrl-C in the terminal reaches the application
 * rather than the server. A JVM killed with SIGKILL leaves it running.
 *
 * <p>{@code sample.embedded-redis.enabled=true} always starts one, {@code false} never does; when unset, one is
 * started only if none of {@code spring.data.redis.host}, {@code port}, {@code url}, {@code sentinel.nodes},
 * {@code cluster.nodes} or {@code masterreplica.nodes} is set. None is started while the build processes the
 * application ahead of time ({@code spring-boot:process-aot}, which runs the initializers too); the AOT-processed
 * application starts one when it runs, like any other. Registered in {@code META-INF/spring.factories}.
 */
public final class EmbeddedRedisInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** Name of the {@link RedisServer} bean registered when the embedded server runs. */
    public static final String BEAN_NAME = "sampleEmbeddedRedis";

    /** The switch: {@code true}, {@code false}, or unset for "only when no Redis is configured". */
    public static final String ENABLED_PROPERTY = "sample.embedded-redis.enabled";

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisInitializer.class);

    private static final List<String> ADDRESS_PROPERTIES = List.of("spring.data.redis.host",
            "spring.data.redis.port", "spring.data.redis.url");

    private static final List<String> NODE_LIST_PROPERTIES = List.of("spring.data.redis.sentinel.nodes",
            "spring.data.redis.cluster.nodes", "spring.data.redis.masterreplica.nodes");

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        if (Boolean.getBoolean(AbstractAotProcessor.AOT_PROCESSING)) {
            // the build refreshes the context to generate its bean definitions: no server, it would outlive the build
            return;
        }
        ConfigurableEnvironment environment = context.getEnvironment();
        Boolean enabled = environment.getProperty(ENABLED_PROPERTY, Boolean.class);
        boolean configured = redisConfigured(environment);
        if (Boolean.FALSE.equals(enabled) || (enabled == null && configured)) {
            log.info("Using the configured Redis at {} (no embedded redis-server started)", describe(environment));
            return;
        }
        // own session: a Ctrl-C in the terminal stops the application, which stops the server after its clients
        RedisServer server = RedisServer.start(RedisServerOptions.defaults().withOwnSession());
        // url too: it takes precedence over host and port when a forced start meets a configured url
        environment.getPropertySources().addFirst(new MapPropertySource(BEAN_NAME, Map.of("spring.data.redis.url",
                server.uri(), "spring.data.redis.host", server.host(), "spring.data.redis.port", server.port())));
        context.getBeanFactory().registerSingleton(BEAN_NAME, server);
        // registered before every other bean, so destroyed after all of them: clients disconnect first
        ((DefaultSingletonBeanRegistry) context.getBeanFactory()).registerDisposableBean(BEAN_NAME, server::stop);
        log.info("Started an embedded redis-server {} (pid {}) on {}:{}; it stops with this application",
                RedisBinary.VERSION, server.pid(), server.host(), server.port());
    }

    private static boolean redisConfigured(Environment environment) {
        for (String name : ADDRESS_PROPERTIES) {
            if (environment.containsProperty(name)) {
                return true;
            }
        }
        for (String name : NODE_LIST_PROPERTIES) {
            if (isListBound(environment, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isListBound(Environment environment, String name) {
        // list properties may be given as name[0], name[1]: containsProperty(name) would miss them
        return Binder.get(environment).bind(name, Bindable.listOf(String.class)).isBound();
    }

    /** The configured Redis address for logs, without credentials. */
    static String describe(Environment environment) {
        for (String name : NODE_LIST_PROPERTIES) {
            if (isListBound(environment, name)) {
                return "the nodes in " + name;
            }
        }
        String url = environment.getProperty("spring.data.redis.url");
        if (url != null) {
            // never log credentials that a URL may carry
            return url.replaceFirst("//[^@/]*@", "//***@");
        }
        return environment.getProperty("spring.data.redis.host", "localhost") + ":"
                + environment.getProperty("spring.data.redis.port", "6379");
    }
}
