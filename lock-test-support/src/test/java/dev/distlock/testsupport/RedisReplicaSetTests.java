package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisReplicaSetTests {

    @AfterEach
    void nothingLeft() {
        Processes.assertNoneLeft();
    }

    @Test
    void replicasFollowTheMaster() {
        List<Long> pids = new ArrayList<>();
        try (RedisReplicaSet set = RedisReplicaSet.start(2)) {
            assertThat(set.replicas()).hasSize(2);
            assertThat(TestRedis.info(set.master(), "replication")).contains("connected_slaves:2");
            for (RedisServer replica : set.replicas()) {
                assertThat(TestRedis.info(replica, "replication"))
                        .contains("role:slave", "master_port:" + set.master().port(), "master_link_status:up");
            }

            long acked = TestRedis.setAndWait(set.master(), "lock", "owner-1", 2);

            assertThat(acked).isEqualTo(2);
            assertThat(TestRedis.get(set.replica(0), "lock")).isEqualTo("owner-1");
            assertThat(TestRedis.get(set.replica(1), "lock")).isEqualTo("owner-1");
            pids.add(set.master().pid());
            set.replicas().forEach(replica -> pids.add(replica.pid()));
        }
        Processes.assertDead(pids);
    }

    @Test
    void replicasResyncWithARestartedEmptyMaster() {
        try (RedisReplicaSet set = RedisReplicaSet.start(1)) {
            TestRedis.setAndWait(set.master(), "k", "v", 1);
            assertThat(TestRedis.get(set.replica(0), "k")).isEqualTo("v");

            set.master().restart();
            set.awaitReplicasInSync(Duration.ofSeconds(10));

            assertThat(TestRedis.get(set.replica(0), "k")).isNull();
        }
    }
}
