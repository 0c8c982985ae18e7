package dev.distlock.core;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The per-test fixture of the lock tests: flushes the {@link RedisExtension}'s Redis before each test and injects,
 * into test, {@code @BeforeEach} and {@code @AfterEach} methods, a {@link RedisLockClient} (watchdog lease
 * {@link LockClients#TEST_WATCHDOG_LEASE}), a raw {@code RedisCommands<String, String>} connection and the
 * {@link LockClients} behind them, for clients with other options. Within one test
 * every parameter of a type gets the same instance; all of them are closed after the test.
 *
 * <pre>{@code
 * @RegisterExtension static final RedisExtension redis = RedisExtension.single();
 * @RegisterExtension static final LockClientsExtension lockClients = new LockClientsExtension(redis);
 *
 * @Test void somethingHolds(RedisLockClient client, RedisCommands<String, String> raw) { ... }
 * }</pre>
 */
final class LockClientsExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
        .create(LockClientsExtension.class);

    private final RedisExtension redis;

    LockClientsExtension(RedisExtension redis) {
        this.redis = redis;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        this.redis.flushAll();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return isLockClient(parameterContext) || isRawCommands(parameterContext) || isLockClients(parameterContext);
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Fixture fixture = fixture(extensionContext);
        if (isLockClients(parameterContext)) {
            return fixture.clients;
        }
        if (isLockClient(parameterContext)) {
            if (fixture.client == null) {
                fixture.client = fixture.clients.create();
            }
            return fixture.client;
        }
        if (fixture.raw == null) {
            fixture.raw = fixture.clients.raw();
        }
        return fixture.raw;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Fixture fixture = context.getStore(NAMESPACE).remove(context.getUniqueId(), Fixture.class);
        if (fixture != null) {
            fixture.clients.close();
        }
    }

    private Fixture fixture(ExtensionContext context) {
        if (context.getTestMethod().isEmpty()) {
            throw new ParameterResolutionException(
                    "LockClientsExtension injects per-test clients only into test, @BeforeEach and @AfterEach methods");
        }
        return context.getStore(NAMESPACE)
            .computeIfAbsent(context.getUniqueId(), (id) -> new Fixture(new LockClients(this.redis.uri())),
                    Fixture.class);
    }

    private static boolean isLockClients(ParameterContext parameterContext) {
        return parameterContext.getParameter().getType() == LockClients.class;
    }

    private static boolean isLockClient(ParameterContext parameterContext) {
        return parameterContext.getParameter().getType() == RedisLockClient.class;
    }

    private static boolean isRawCommands(ParameterContext parameterContext) {
        Type type = parameterContext.getParameter().getParameterizedType();
        return type instanceof ParameterizedType parameterized && parameterized.getRawType() == RedisCommands.class
                && parameterized.getActualTypeArguments()[0] == String.class
                && parameterized.getActualTypeArguments()[1] == String.class;
    }

    /** What one test got; mutable because it is filled as parameters are resolved, on the test's thread. */
    private static final class Fixture {

        final LockClients clients;

        RedisLockClient client;

        RedisCommands<String, String> raw;

        Fixture(LockClients clients) {
            this.clients = clients;
        }
    }
}
