package dev.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisServersTests {

    @AfterEach
    void nothingLeft() {
        Processes.assertNoneLeft();
    }

    @Test
    void startsIndependentServersOnDistinctPortsAndClosesThemAll() {
        List<Long> pids;
        try (RedisServers servers = RedisServers.start(3)) {
            assertThat(servers.size()).isEqualTo(3);
            assertThat(servers.servers()).extracting(RedisServer::port).doesNotHaveDuplicates();
            assertThat(servers.uris()).hasSize(3).doesNotHaveDuplicates();
            for (int i = 0; i < servers.size(); i++) {
                String key = "k" + i;
                LettuceCalls.call(RedisURI.create(servers.get(i).uri()), redis -> redis.set(key, "v"));
            }
            // independent: each server only has its own key
            for (int i = 0; i < servers.size(); i++) {
                List<String> keys = LettuceCalls.call(RedisURI.create(servers.get(i).uri()), redis -> redis.keys("*"));
                assertThat(keys).containsExactly("k" + i);
            }
            pids = servers.servers().stream().map(RedisServer::pid).collect(Collectors.toList());
        }
        Processes.assertDead(pids);
    }
}
