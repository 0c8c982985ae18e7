package dev.distlock.core.internal.protocol;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.distlock.core.internal.InstanceIds;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerTokensTests {

    @Test
    void tokensAreUniqueAndNameTheirInstance() {
        OwnerTokens tokens = new OwnerTokens("orders@host-1:42");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String token = tokens.next();
            assertThat(token).startsWith("orders@host-1:42:" + tokens.clientId() + ":").doesNotContain(" ", "|");
            assertThat(OwnerTokens.instanceIdOf(token)).isEqualTo("orders@host-1:42");
            assertThat(seen.add(token)).isTrue();
        }
    }

    @Test
    void twoClientsOfOneInstanceNeverMintTheSameToken() {
        OwnerTokens first = new OwnerTokens("same");
        OwnerTokens second = new OwnerTokens("same");
        assertThat(first.clientId()).isNotEqualTo(second.clientId()).hasSize(16);
        assertThat(first.next()).isNotEqualTo(second.next());
    }

    @Test
    void tokensOfAnotherShapeHaveNoInstance() {
        assertThat(OwnerTokens.instanceIdOf("plain")).isNull();
        assertThat(OwnerTokens.instanceIdOf("a:b")).isNull();
        assertThat(OwnerTokens.instanceIdOf(null)).isNull();
        assertThat(OwnerTokens.instanceIdOf("i:c:1")).isEqualTo("i");
    }

    @Test
    void derivedInstanceIdsFitIntoTokens() {
        String id = InstanceIds.derive("My Orders | EU");
        assertThat(id).startsWith("My-Orders---EU@").endsWith(":" + ProcessHandle.current().pid());
        assertThat(InstanceIds.validate(id)).isEqualTo(id);
        assertThat(InstanceIds.derive("x".repeat(300))).hasSize(InstanceIds.MAX_LENGTH);
    }
}
