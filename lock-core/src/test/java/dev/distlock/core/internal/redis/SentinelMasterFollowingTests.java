package dev.distlock.core.internal.redis;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pieces of following a Sentinel master that need no server: reading the client's Sentinel URI, parsing
 * {@code +switch-master}, and connecting directly to a master with the application's settings. The switch itself is
 * proven on real Sentinels by the reliability suite (F21, {@code SentinelMasterSwitchTests}).
 */
class SentinelMasterFollowingTests {

    @Test
    void theSentinelUriIsReadFromTheClient() {
        RedisClient client = RedisClient.create("redis-sentinel://127.0.0.1:26379,127.0.0.1:26380#mymaster");
        try {
            assertThat(SentinelUris.of(client)).hasValueSatisfying((uri) -> {
                assertThat(uri.getSentinelMasterId()).isEqualTo("mymaster");
                assertThat(uri.getSentinels()).hasSize(2);
            });
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ZERO);
        }
    }

    @Test
    void aStandaloneClientIsNotFollowed() {
        RedisClient client = RedisClient.create("redis://127.0.0.1:6379");
        RedisClient noUri = RedisClient.create();
        try {
            assertThat(SentinelUris.of(client)).isEmpty();
            assertThat(SentinelUris.of(noUri)).isEmpty();
        }
        finally {
            client.shutdown(Duration.ZERO, Duration.ZERO);
            noUri.shutdown(Duration.ZERO, Duration.ZERO);
        }
    }

    @Test
    void aSwitchOfOurMasterGivesTheOldAndNewAddresses() {
        MasterAddress[] switched = MasterAddress.switched("mymaster", "mymaster 10.0.0.1 6379 10.0.0.2 6380");
        assertThat(switched).containsExactly(new MasterAddress("10.0.0.1", 6379), new MasterAddress("10.0.0.2", 6380));
    }

    @Test
    void aSwitchOfAnotherMasterOrAMalformedMessageIsIgnored() {
        assertThat(MasterAddress.switched("mymaster", "other 10.0.0.1 6379 10.0.0.2 6380")).isNull();
        assertThat(MasterAddress.switched("mymaster", "mymaster 10.0.0.1 6379")).isNull();
        assertThat(MasterAddress.switched("mymaster", "mymaster 10.0.0.1 6379 10.0.0.2 port")).isNull();
    }

    @Test
    void theDirectUriToANewMasterKeepsTheApplicationsSettings() {
        RedisURI sentinelUri = RedisURI.Builder.sentinel("127.0.0.1", 26379, "mymaster")
            .withAuthentication("app", "secret")
            .withSsl(true)
            .withDatabase(3)
            .withClientName("orders")
            .withTimeout(Duration.ofMillis(1234))
            .build();
        RedisURI direct = new MasterAddress("10.0.0.2", 6380).toUri(sentinelUri);
        assertThat(direct.getHost()).isEqualTo("10.0.0.2");
        assertThat(direct.getPort()).isEqualTo(6380);
        assertThat(direct.getSentinels()).isEmpty();
        RedisCredentials credentials = direct.getCredentialsProvider().resolveCredentials().block();
        assertThat(credentials.getUsername()).isEqualTo("app");
        assertThat(credentials.getPassword()).isEqualTo("secret".toCharArray());
        assertThat(direct.isSsl()).isTrue();
        assertThat(direct.getDatabase()).isEqualTo(3);
        assertThat(direct.getClientName()).isEqualTo("orders");
        assertThat(direct.getTimeout()).isEqualTo(Duration.ofMillis(1234));
    }
}
