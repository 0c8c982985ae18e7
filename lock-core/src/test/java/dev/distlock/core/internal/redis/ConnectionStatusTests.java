package dev.distlock.core.internal.redis;

import java.time.Duration;

import dev.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The status after a Sentinel master move ({@link MasterTopology#replace}): the connection that replaced a dropped
 * one is reported with its own master and its own grace, not the state of the one before.
 */
class ConnectionStatusTests {

    private RedisServer server;

    private RedisClient client;

    private ConnectionStatus status;

    @BeforeEach
    void setUp() {
        this.server = RedisServer.start();
        this.client = RedisClient.create(RedisURI.create(this.server.uri()));
        this.status = ConnectionStatus.watching(this.client);
    }

    @AfterEach
    void tearDown() {
        this.status.close();
        this.client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        this.server.close();
    }

    @Test
    void aConnectionThatReplacedADroppedOneIsReportedWithItsOwnMasterAndGrace() throws Exception {
        StatefulRedisConnection<String, String> retired = this.client.connect();
        this.status.track(retired, new MasterAddress("127.0.0.1", 1111));
        retired.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> this.status.disconnectedFor().compareTo(Duration.ZERO) > 0);
        Thread.sleep(1_000);

        StatefulRedisConnection<String, String> moved = this.client.connect();
        this.status.track(moved, new MasterAddress("127.0.0.1", this.server.port()));
        assertThat(this.status.isConnected()).isTrue();
        assertThat(this.status.target()).isEqualTo("127.0.0.1:" + this.server.port());
        assertThat(this.status.unavailableReason(Duration.ofMillis(500))).isNull();

        moved.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> this.status.disconnectedFor().compareTo(Duration.ZERO) > 0);
        assertThat(this.status.disconnectedFor()).as("down since the moved connection dropped, not the one before")
            .isLessThan(Duration.ofMillis(900));
    }
}
