package dev.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@link ReportGenerator} seen over HTTP: the only instance leads its group and generates reports stamped with its
 * epoch, {@code /actuator/distributedlocks} lists the election, and a yield starts a new term with a greater epoch.
 * Reports come every 100 ms here.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "sample.leader-report-period=100ms")
@Timeout(60)
class LeaderOverHttpTests {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
    };

    @LocalServerPort
    private int port;

    @Test
    void theOnlyInstanceLeadsAndGeneratesReportsStampedWithItsEpoch() {
        Map<String, Object> view = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
            .until(() -> get("/leader"), (leader) -> number(leader.get("reportsGenerated")) >= 2);
        assertThat(view.get("group")).isEqualTo(ReportGenerator.GROUP);
        assertThat(view.get("leader")).isEqualTo(true);
        assertThat(String.valueOf(view.get("instanceId"))).startsWith("distlock-sample@");
        long epoch = number(view.get("epoch"));
        assertThat(epoch).isPositive();
        assertThat(number(map(view.get("lastReport")).get("epoch"))).isEqualTo(epoch);

        List<?> leaders = (List<?>) get("/actuator/distributedlocks").get("leaders");
        assertThat(leaders).singleElement().satisfies((entry) -> {
            Map<String, Object> leader = map(entry);
            assertThat(leader.get("group")).isEqualTo(ReportGenerator.GROUP);
            assertThat(leader.get("lock")).isEqualTo("leader:" + ReportGenerator.GROUP);
            assertThat(leader.get("leader")).isEqualTo(true);
            assertThat(number(leader.get("epoch"))).isEqualTo(epoch);
            assertThat(leader.get("since")).isNotNull();
        });
    }

    @Test
    void aYieldStartsANewTermWithAGreaterEpoch() {
        Map<String, Object> first = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
            .until(() -> get("/leader"), (leader) -> Boolean.TRUE.equals(leader.get("leader")));
        long epoch = number(first.get("epoch"));

        ResponseEntity<Map<String, Object>> yielded = RestClient.create("http://localhost:" + this.port).post()
            .uri("/leader/yield").retrieve().toEntity(JSON);
        assertThat(yielded.getStatusCode()).isEqualTo(HttpStatus.OK);

        // alone in the group, this instance leads again, in a new term
        Map<String, Object> next = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
            .until(() -> get("/leader"), (leader) -> Boolean.TRUE.equals(leader.get("leader"))
                    && number(leader.get("epoch")) != epoch);
        assertThat(number(next.get("epoch"))).isGreaterThan(epoch);
    }

    private Map<String, Object> get(String path) {
        ResponseEntity<Map<String, Object>> response = RestClient.create("http://localhost:" + this.port).get()
            .uri(path).retrieve().toEntity(JSON);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        return Objects.requireNonNull(response.getBody());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) Objects.requireNonNull(value);
    }

    private static long number(Object value) {
        return ((Number) Objects.requireNonNull(value)).longValue();
    }
}
