/**
 * Real {@code redis-server} processes for tests and local runs: no mocks, no containers.
 *
 * <ul>
 *   <li>{@link dev.distlock.testsupport.RedisServer}: one process on a free loopback port, with fault
 *       controls (stop, kill -9, pause, resume, restart on the same port).</li>
 *   <li>{@link dev.distlock.testsupport.RedisServers}: several independent servers started in parallel.</li>
 *   <li>{@link dev.distlock.testsupport.RedisReplicaSet}: a master plus replicas that are in sync.</li>
 *   <li>{@link dev.distlock.testsupport.RedisExtension}: a JUnit Jupiter extension that starts one of the
 *       above before a test class and stops it after.</li>
 *   <li>{@link dev.distlock.testsupport.RedisSentinelSet}: a master, replicas and three Sentinels, with failover and
 *       replica-partition controls; {@link dev.distlock.testsupport.RedisClusterSet}: a Redis Cluster formed from
 *       Java, with failover and slot migration; {@link dev.distlock.testsupport.RedisTopologyExtension} starts either
 *       around a test class. The two extensions are the only types that need JUnit on the class path.</li>
 *   <li>{@link dev.distlock.testsupport.FaultProxy}: a loopback TCP proxy that delays, blackholes, half-opens, drops
 *       pub/sub deliveries or resets connections.</li>
 *   <li>{@link dev.distlock.testsupport.ChildJvm}: a main class in a child JVM that can be frozen or killed.</li>
 *   <li>{@link dev.distlock.testsupport.LockEvent}, {@link dev.distlock.testsupport.History},
 *       {@link dev.distlock.testsupport.HistoryChecks}, {@link dev.distlock.testsupport.FencedCounter}: event
 *       histories of lock users and the checkers that judge them.</li>
 * </ul>
 *
 * <p>The binary comes from {@link dev.distlock.testsupport.RedisBinary}: the redis-server 7.0.15 bundled in
 * {@code org.signal:embedded-redis}, or the one named by the environment variable {@code DISTLOCK_REDIS_SERVER}.
 */
@org.jspecify.annotations.NullMarked
package dev.distlock.testsupport;
