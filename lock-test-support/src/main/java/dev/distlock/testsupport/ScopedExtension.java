package dev.distlock.testsupport;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The lifecycle of {@link RedisExtension} and {@link RedisTopologyExtension}: what the extension provides is started by
 * the first callback that comes (before {@code @BeforeAll} methods on a {@code static} field, before each test on an
 * instance field) and stopped by the matching after-callback of the same scope, also when tests fail; callbacks of
 * inner scopes (tests, {@code @Nested} classes) find it running and leave it alone.
 *
 * @param <X> what stopping may throw
 */
abstract class ScopedExtension<X extends Exception> implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback {

    private volatile @Nullable String startedBy;

    /** Starts what the extension provides; called again only after {@link #stop()}. */
    abstract void start();

    /** Stops what {@link #start()} started. */
    abstract void stop() throws X;

    @Override
    public final void beforeAll(ExtensionContext context) {
        startIfNeeded(context);
    }

    @Override
    public final void afterAll(ExtensionContext context) throws X {
        stopIfStartedBy(context);
    }

    @Override
    public final void beforeEach(ExtensionContext context) {
        startIfNeeded(context); // only starts for instance fields, where beforeAll is never called
    }

    @Override
    public final void afterEach(ExtensionContext context) throws X {
        stopIfStartedBy(context);
    }

    private synchronized void startIfNeeded(ExtensionContext context) {
        if (startedBy != null) {
            return;
        }
        start();
        startedBy = context.getUniqueId();
    }

    private synchronized void stopIfStartedBy(ExtensionContext context) throws X {
        if (!context.getUniqueId().equals(startedBy)) {
            return;
        }
        startedBy = null;
        stop();
    }
}
