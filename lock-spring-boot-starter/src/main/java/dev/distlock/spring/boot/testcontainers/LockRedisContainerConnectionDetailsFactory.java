package dev.distlock.spring.boot.testcontainers;

import dev.distlock.spring.boot.LockRedisConnectionDetails;
import org.testcontainers.containers.Container;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * A {@link LockRedisConnectionDetails} for a Redis container whose {@code @ServiceConnection} names that type, e.g.
 * {@code @ServiceConnection(type = LockRedisConnectionDetails.class)}. A plain {@code @ServiceConnection} Redis is
 * the application's ({@code spring.data.redis.*}, which Boot configures and the locks reuse), so it does not match:
 * otherwise every Redis container would also move the locks to a dedicated connection.
 */
class LockRedisContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<Container<?>, LockRedisConnectionDetails> {

    private static final int REDIS_PORT = 6379;

    @Override
    protected boolean sourceAccepts(ContainerConnectionSource<Container<?>> source, Class<?> requiredContainerType,
            Class<?> requiredConnectionDetailsType) {
        // a source without a type accepts every connection-details type, ConnectionDetails itself included
        boolean typed = !source.accepts(ANY_CONNECTION_NAME, requiredContainerType, ConnectionDetails.class);
        return typed && super.sourceAccepts(source, requiredContainerType, requiredConnectionDetailsType);
    }

    @Override
    protected LockRedisConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
        return new LockRedisContainerConnectionDetails(source);
    }

    /** The container's mapped Redis port on its host. */
    static final class LockRedisContainerConnectionDetails extends ContainerConnectionDetails<Container<?>>
            implements LockRedisConnectionDetails {

        LockRedisContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
            super(source);
        }

        @Override
        public Standalone getStandalone() {
            return Standalone.of(getContainer().getHost(), getContainer().getMappedPort(REDIS_PORT));
        }
    }
}
