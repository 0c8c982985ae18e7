package dev.distlock.sample;

import java.time.Duration;
import java.util.List;

import dev.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances side by side, as the README shows: the second started with {@code --spring.data.redis.port} of the
 * first one's embedded Redis. Reservations sent to both at once still sell exactly the stock.
 */
@Timeout(90)
class SecondInstanceSharesLocksTests {

    @Test
    void reservationsSpreadOverTwoInstancesSellExactlyTheStock() throws Exception {
        try (ConfigurableApplicationContext first = EmbeddedRedisLifecycleTests.start()) {
            int redisPort = first.getBean(EmbeddedRedisInitializer.BEAN_NAME, RedisServer.class).port();
            try (ConfigurableApplicationContext second = EmbeddedRedisLifecycleTests
                .start("--spring.data.redis.port=" + redisPort)) {
                assertThat(second.containsBean(EmbeddedRedisInitializer.BEAN_NAME)).isFalse();
                SampleHttpClient one = new SampleHttpClient(port(first));
                SampleHttpClient two = new SampleHttpClient(port(second));
                one.createItem("shared", 10);

                List<ResponseEntity<Reservation>> responses = SampleHttpClient.reserveConcurrently(List.of(one, two),
                        List.of("annotation", "template"), "shared", 40, Duration.ofSeconds(30));

                assertThat(responses).filteredOn((r) -> r.getStatusCode() == HttpStatus.CREATED).hasSize(10);
                ItemSnapshot item = two.item("shared").getBody();
                assertThat(item).isNotNull();
                assertThat(item.stock()).isZero();
                assertThat(item.sold()).isEqualTo(10);
                assertThat(item.staleWritesRejected()).isZero();
                assertThat(item.sales()).extracting(ItemSnapshot.Sale::fencingToken).isSorted()
                    .doesNotHaveDuplicates();
            }
        }
    }

    private static int port(ConfigurableApplicationContext app) {
        Integer port = app.getEnvironment().getProperty("local.server.port", Integer.class);
        assertThat(port).isNotNull();
        return port;
    }
}
