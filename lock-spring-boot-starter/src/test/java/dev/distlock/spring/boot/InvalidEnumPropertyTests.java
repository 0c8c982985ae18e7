package dev.distlock.spring.boot;

import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** What an application's start prints for an enum property with a value that is not one of its constants. */
@ExtendWith(OutputCaptureExtension.class)
class InvalidEnumPropertyTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    @Test
    void invalidLostLeasePolicyListsTheAllowedValues(CapturedOutput output) {
        assertThatException().isThrownBy(() -> new SpringApplicationBuilder(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class)
            .web(WebApplicationType.NONE)
            .properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                    "distributed-lock.lost-lease-policy=banana")
            .run()
            .close());
        assertThat(output).contains("distributed-lock.lost-lease-policy")
            .contains("banana")
            .containsPattern("(?s)valid.*FAIL.*(INTERRUPT|IGNORE)");
    }
}
