package dev.distlock.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample under {@code sample.*}. The embedded Redis switch, {@code sample.embedded-redis.enabled}, is
 * read before the context exists; see {@link EmbeddedRedisInitializer}.
 *
 * @param workDelay simulated work (a payment call, say) between reading the stock and writing it back; it widens the
 * race window so that the unlocked path visibly oversells
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("5ms") Duration workDelay) {
}
