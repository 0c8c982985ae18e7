/**
 * Real {@code redis-server} processes for tests and local runs: no mocks, no containers.
 *
 * <ul>
 *   <li>{@link dev.distlock.testsupport.RedisServer}: one process on a free loopback port, with fault
 *       controls (stop, kill -9, pause, resume, restart on the same port).</li>
 *   <li>{@link dev.distlock.testsupport.RedisServers}: several independent servers started in parallel.</li>
 *   <li>{@link dev.distlock.testsupport.RedisReplicaSet}: a master plus replicas that are in sync.</li>
 *   <li>{@link dev.distlock.testsupport.RedisExtension}: a JUnit Jupiter extension that starts one of the
 *       above before a test class and stops it after. It is the only type that needs JUnit on the class path.</li>
 * </ul>
 *
 * <p>The binary comes from {@link dev.distlock.testsupport.RedisBinary}: the redis-server 7.0.15 bundled in
 * {@code org.signal:embedded-redis}, or the one named by the environment variable {@code DISTLOCK_REDIS_SERVER}.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.testsupport;
