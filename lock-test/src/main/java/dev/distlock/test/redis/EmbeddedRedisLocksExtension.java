package dev.distlock.test.redis;

import java.lang.annotation.Annotation;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.distlock.core.LockClient;
import dev.distlock.core.LockTemplate;
import dev.distlock.core.RedisLockClient;
import io.lettuce.core.RedisClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The extension behind {@link EmbeddedRedisLocks}: starts the server in {@code beforeAll} of the outermost annotated
 * class, creates the lock client when a parameter first asks for it, and in that class's {@code afterAll} closes the
 * lock client, then the Lettuce client, then the server.
 */
final class EmbeddedRedisLocksExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(EmbeddedRedisLocksExtension.class);

    private static final String SPRING_BOOTSTRAP = "org.springframework.test.context.BootstrapWith";

    private static final String SPRING_EXTENSION = "org.springframework.test.context.junit.jupiter.SpringExtension";

    @Override
    public void beforeAll(ExtensionContext context) {
        if (find(context) != null) {
            return;
        }
        Class<?> testClass = context.getRequiredTestClass();
        if (isSpringTest(testClass)) {
            throw new ExtensionConfigurationException(testClass.getName() + " is a Spring test: use"
                    + " @AutoConfigureEmbeddedRedis instead of @EmbeddedRedisLocks, so Redis stops after the Spring"
                    + " context closes (the context is cached beyond the test class, and a lock client or scheduled"
                    + " job still using it would wait on a dead Redis)");
        }
        context.getStore(NAMESPACE).put(Resources.class, new Resources(EmbeddedRedis.start()));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Resources resources = context.getStore(NAMESPACE).remove(Resources.class, Resources.class);
        if (resources != null) {
            resources.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedRedis.class || type == RedisLockClient.class || type == LockClient.class
                || type == LockTemplate.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Resources resources = find(context);
        if (resources == null) {
            throw new ExtensionConfigurationException("No embedded Redis for " + parameter.getParameter()
                    + ": the class must be annotated with @EmbeddedRedisLocks");
        }
        Class<?> type = parameter.getParameter().getType();
        if (type == EmbeddedRedis.class) {
            return resources.redis;
        }
        return (type == LockTemplate.class) ? resources.template() : resources.client();
    }

    private static @Nullable Resources find(ExtensionContext context) {
        for (ExtensionContext at = context; at != null; at = at.getParent().orElse(null)) {
            Resources resources = at.getStore(NAMESPACE).get(Resources.class, Resources.class);
            if (resources != null) {
                return resources;
            }
        }
        return null;
    }

    private static boolean isSpringTest(Class<?> testClass) {
        Set<Class<?>> seen = new HashSet<>();
        Deque<Annotation> toVisit = new ArrayDeque<>();
        for (Class<?> type = testClass; type != null; type = type.getSuperclass()) {
            toVisit.addAll(List.of(type.getAnnotations()));
        }
        while (!toVisit.isEmpty()) {
            Annotation annotation = toVisit.pop();
            Class<? extends Annotation> type = annotation.annotationType();
            if (type.getName().equals(SPRING_BOOTSTRAP) || extendsWithSpring(annotation)) {
                return true;
            }
            if (seen.add(type) && !type.getName().startsWith("java.lang")) {
                toVisit.addAll(List.of(type.getAnnotations()));
            }
        }
        return false;
    }

    private static boolean extendsWithSpring(Annotation annotation) {
        return annotation instanceof ExtendWith extendWith
                && Stream.of(extendWith.value()).anyMatch((type) -> type.getName().equals(SPRING_EXTENSION));
    }

    /** The server and, once asked for, the lock client on it; closed in dependency order. */
    private static final class Resources {

        private final EmbeddedRedis redis;

        private @Nullable RedisClient lettuce;

        private @Nullable RedisLockClient client;

        private @Nullable LockTemplate template;

        Resources(EmbeddedRedis redis) {
            this.redis = redis;
        }

        synchronized RedisLockClient client() {
            if (this.client == null) {
                this.lettuce = RedisClient.create(this.redis.uri());
                this.client = RedisLockClient.create(this.lettuce);
            }
            return this.client;
        }

        synchronized LockTemplate template() {
            if (this.template == null) {
                this.template = new LockTemplate(client());
            }
            return this.template;
        }

        synchronized void close() {
            try {
                if (this.client != null) {
                    this.client.close();
                }
                if (this.lettuce != null) {
                    this.lettuce.shutdown();
                }
            }
            finally {
                this.redis.stop();
            }
        }
    }
}
