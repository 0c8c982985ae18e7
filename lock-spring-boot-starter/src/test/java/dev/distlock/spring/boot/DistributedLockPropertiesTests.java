package dev.distlock.spring.boot;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import com.jayway.jsonpath.JsonPath;
import dev.distlock.core.LockClientOptions;
import dev.distlock.core.RedisLockClient;
import dev.distlock.testsupport.RedisExtension;
import io.lettuce.core.RedisClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

class DistributedLockPropertiesTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = LockContextRunners.withRedis(redis.host(),
            redis.port());

    /** Each row: properties without the {@code distributed-lock.} prefix ({@code ;}-separated), message part. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            lease-time=100ms                 | distributed-lock.lease-time must be at least 300ms, was 100ms
            lease-time=400d                  | distributed-lock.lease-time must be at most 365 days, was 400d
            wait-time=-1s                    | distributed-lock.wait-time must not be negative, was -1s
            operation-timeout=0              | distributed-lock.operation-timeout must be positive, was 0ms
            max-backoff=-5ms                 | distributed-lock.max-backoff must be positive, was -5ms
            handoff-offer=50ms               | distributed-lock.handoff-offer must be at least 100ms, was 50ms
            key-prefix=locks{x}:             | distributed-lock.key-prefix
            lost-lease-policy=MAYBE          | distributed-lock.lost-lease-policy
            lease-time=soon                  | distributed-lock.lease-time
            fencing-counter-retention=0      | distributed-lock.fencing-counter-retention must be positive, was 0ms
            max-name-length=0                | distributed-lock.max-name-length must be at least 1, was 0
            redis.port=70000                 | distributed-lock.redis.port must be between 1 and 65535
            redis.database=-1                | distributed-lock.redis.database must not be negative
            redis.timeout=0s                 | distributed-lock.redis.timeout must be positive
            redis.sentinel.master=m1         | distributed-lock.redis.sentinel.nodes must list at least one
            redis.url=http://h:1             | distributed-lock.redis.url is not a valid Redis URL
            redis.cluster.nodes=no-port      | distributed-lock.redis.cluster.nodes entries must be
            redis.cluster.nodes=h:1;redis.cluster.max-redirects=-1 | cluster.max-redirects must not be negative
            redis.cluster.nodes=h:1;redis.host=h | redis.cluster.nodes and distributed-lock.redis.host are both set
            replica-acks.count=-1            | distributed-lock.replica-acks.count must not be negative
            replica-acks.timeout=0           | distributed-lock.replica-acks.timeout must be positive
            replica-acks.policy=maybe        | distributed-lock.replica-acks.policy
            replica-acks.count=1;replica-acks.timeout=3s | must be shorter than distributed-lock.operation-timeout
            redlock.nodes=redis://h:1,redis://h:2 | distributed-lock.redlock.nodes must list at least 3 independent
            redlock.nodes=redis://h:1,redis://h:2,http://h:3 | redlock.nodes entries must be Redis URIs
            redlock.nodes=redis://h:1,redis://h:2,redis://h:1/2 | distributed-lock.redlock.nodes lists h:1 twice
            redlock.node-timeout=0           | distributed-lock.redlock.node-timeout must be positive
            redlock.node-timeout=30s         | node-timeout must be shorter than distributed-lock.lease-time (30s)
            instance-id=two words            | distributed-lock.instance-id 'two words' must not contain whitespace
            reconnect-max-delay=0            | distributed-lock.reconnect-max-delay must be positive, was 0ms
            """)
    void invalidPropertyFailsTheStartNamingIt(String properties, String message) {
        String[] values = Arrays.stream(properties.split(";"))
            .map((property) -> DistributedLockProperties.PREFIX + "." + property)
            .toArray(String[]::new);
        this.contextRunner.withPropertyValues(values).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure())).contains(message);
        });
    }

    @Test
    void limitOfLockClientOptionsIsReportedAsTheProperty() {
        this.contextRunner.withPropertyValues("distributed-lock.lease-time=100ms").run((context) -> {
            Throwable cause = context.getStartupFailure();
            while (cause != null && !(cause instanceof InvalidConfigurationPropertyValueException)) {
                cause = cause.getCause();
            }
            assertThat(cause).isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
                assertThat(ex.getName()).isEqualTo("distributed-lock.lease-time");
                assertThat(ex.getValue()).isEqualTo("100ms");
                assertThat(ex.getReason()).isEqualTo("distributed-lock.lease-time must be at least 300ms, was 100ms:"
                        + " it is renewed every third of it, which must leave time for a round trip");
            });
        });
    }

    @Test
    void crossPropertyLimitNamesBothProperties() {
        this.contextRunner
            .withPropertyValues("distributed-lock.replica-acks.count=1", "distributed-lock.operation-timeout=2s",
                    "distributed-lock.replica-acks.timeout=2s")
            .run((context) -> assertThat(messages(context.getStartupFailure()))
                .contains("distributed-lock.replica-acks.timeout must be shorter than"
                        + " distributed-lock.operation-timeout (2s), was 2s"));
    }

    @Test
    void propertiesAreCheckedWhenTheApplicationBringsItsOwnClient() {
        this.contextRunner.withUserConfiguration(OwnClient.class)
            .withPropertyValues("distributed-lock.lease-time=100ms")
            .run((context) -> assertThat(messages(context.getStartupFailure()))
                .contains("distributed-lock.lease-time must be at least 300ms, was 100ms"));
    }

    @Test
    void invalidSentinelNodeIsNamed() {
        this.contextRunner
            .withPropertyValues("distributed-lock.redis.sentinel.master=m1",
                    "distributed-lock.redis.sentinel.nodes=localhost:26379,no-port")
            .run((context) -> assertThat(messages(context.getStartupFailure()))
                .contains("distributed-lock.redis.sentinel.nodes entries must be \"host:port\", was \"no-port\""));
    }

    @Test
    void urlPasswordIsNotRepeatedInTheError() {
        this.contextRunner.withPropertyValues("distributed-lock.redis.url=http://user:secret@h:1")
            .run((context) -> assertThat(messages(context.getStartupFailure())).doesNotContain("secret"));
        this.contextRunner
            .withPropertyValues("distributed-lock.redlock.nodes=redis://user:secret@h:1,redis://:secret@h:2")
            .run((context) -> assertThat(messages(context.getStartupFailure())).contains("redis://***@h:1")
                .doesNotContain("secret"));
    }

    @Test
    void configurationMetadataDescribesEveryProperty() throws Exception {
        String json = new ClassPathResource("META-INF/spring-configuration-metadata.json")
            .getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
        List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[*]");
        assertThat(properties).extracting((property) -> property.get("name"))
            .contains("distributed-lock.enabled", "distributed-lock.key-prefix", "distributed-lock.lease-time",
                    "distributed-lock.wait-time", "distributed-lock.operation-timeout", "distributed-lock.max-backoff",
                    "distributed-lock.handoff-offer",
                    "distributed-lock.fencing", "distributed-lock.lost-lease-policy", "distributed-lock.advice-order",
                    "distributed-lock.redis.url", "distributed-lock.redis.host", "distributed-lock.redis.port",
                    "distributed-lock.redis.username", "distributed-lock.redis.password",
                    "distributed-lock.redis.database", "distributed-lock.redis.ssl.enabled",
                    "distributed-lock.redis.timeout", "distributed-lock.redis.connect-timeout",
                    "distributed-lock.redis.client-name", "distributed-lock.redis.sentinel.master",
                    "distributed-lock.redis.sentinel.nodes", "distributed-lock.redis.sentinel.username",
                    "distributed-lock.redis.sentinel.password", "distributed-lock.redis.cluster.nodes",
                    "distributed-lock.redis.cluster.max-redirects", "distributed-lock.fencing-counter-retention",
                    "distributed-lock.max-name-length", "distributed-lock.replica-acks.count",
                    "distributed-lock.replica-acks.timeout", "distributed-lock.replica-acks.policy",
                    "distributed-lock.redlock.nodes", "distributed-lock.redlock.node-timeout");
        List<Map<String, Object>> ours = properties.stream()
            .filter((property) -> ((String) property.get("name")).startsWith(DistributedLockProperties.PREFIX + "."))
            .toList();
        assertThat(ours).allSatisfy((property) -> assertThat((String) property.get("description"))
            .as("description of %s", property.get("name"))
            .isNotBlank());
        assertThat(properties).filteredOn((property) -> property.get("name").equals("distributed-lock.key-prefix"))
            .singleElement()
            .satisfies((property) -> assertThat(property.get("defaultValue")).isEqualTo("lock:"));
        assertThat(properties)
            .filteredOn((property) -> property.get("name").equals("distributed-lock.redlock.node-timeout"))
            .singleElement()
            .satisfies((property) -> assertThat(property.get("defaultValue")).isEqualTo("200ms"));
        // the properties class's own defaults, which Boot's processor cannot always read (constants, method calls)
        DistributedLockProperties defaults = new DistributedLockProperties();
        for (Map<String, Object> property : ours) {
            String name = (String) property.get("name");
            Optional<Object> read = read(defaults, name.substring(DistributedLockProperties.PREFIX.length() + 1));
            if (read == null) {
                // declared only in additional-spring-configuration-metadata.json: it must say its default there
                assertThat(property).as(name).containsKey("defaultValue");
                continue;
            }
            Object expected = read.orElse(null);
            if (expected == null || (expected instanceof Collection<?> collection && collection.isEmpty())) {
                continue; // unset: the metadata may name the default another part applies (max-redirects: 5)
            }
            assertThat(property).as(name).containsKey("defaultValue");
            assertThat(sameValue(expected, property.get("defaultValue")))
                .as("%s: metadata default %s, properties default %s", name, property.get("defaultValue"), expected)
                .isTrue();
        }
    }

    @Test
    void configurationMetadataHelpsWithEveryEnumAndDuration() throws Exception {
        String json = new ClassPathResource("META-INF/spring-configuration-metadata.json")
            .getContentAsString(java.nio.charset.StandardCharsets.UTF_8);
        List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[*]");
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            if (!name.startsWith(DistributedLockProperties.PREFIX + ".")) {
                continue;
            }
            String type = (String) property.get("type");
            assertThat(type).as("type of %s", name).isNotBlank();
            if (type.equals(Duration.class.getName())) {
                // a type IDEs know: they complete and check "30s", "500ms"; the default must be one of those
                Object defaultValue = property.get("defaultValue");
                if (defaultValue != null) {
                    assertThat(DurationStyle.detectAndParse(defaultValue.toString())).as(name).isNotNull();
                }
                continue;
            }
            Class<?> resolved = ClassUtils.resolveClassName(type.replaceAll("<.*", ""), null);
            if (!resolved.isEnum()) {
                continue;
            }
            List<Map<String, Object>> values = JsonPath.read(json, "$.hints[?(@.name == '" + name + "')].values[*]");
            assertThat(values).as("value hints of %s", name).isNotEmpty()
                .allSatisfy((value) -> assertThat((String) value.get("description")).as("%s=%s", name,
                        value.get("value")).isNotBlank());
            List<String> constants = Arrays.stream(resolved.getEnumConstants())
                .map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
                .toList();
            assertThat(values).extracting((value) -> (String) value.get("value")).as("value hints of %s", name)
                .allSatisfy((value) -> assertThat(constants).contains(value));
            if (resolved.getPackageName().startsWith("dev.distlock")) {
                assertThat(values).extracting((value) -> (String) value.get("value")).as("value hints of %s", name)
                    .containsExactlyInAnyOrderElementsOf(constants);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({ "lost-lease-policy, FAIL;INTERRUPT;IGNORE", "replica-acks.policy, FAIL;WARN" })
    @ExtendWith(OutputCaptureExtension.class)
    void invalidEnumValueEndsInTheReportListingTheAllowedValues(String property, String allowed,
            CapturedOutput output) {
        SpringApplication application = new SpringApplication(LocksWithoutRedis.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        assertThatException().isThrownBy(() -> application.run("--spring.data.redis.port=1",
                "--distributed-lock.require-redis-at-startup=false", "--spring.main.banner-mode=off",
                "--distributed-lock." + property + "=banana"));

        String report = output.getAll().substring(output.getAll().lastIndexOf("APPLICATION FAILED TO START"));
        assertThat(report).contains("distributed-lock." + property, "banana", "Action:");
        assertThat(report.substring(report.indexOf("Action:"))).contains(allowed.split(";"));
    }

    /**
     * The value of a property ({@code redis.cluster.max-redirects}) in a fresh properties object, read with its
     * getters (not as a bean property: {@code LockRedisProperties} has both {@code getCluster()} and
     * {@code isCluster()}); null if the properties class has no such property.
     */
    private static @Nullable Optional<Object> read(Object root, String property) {
        Object current = root;
        for (String segment : property.split("\\.")) {
            String capitalized = Arrays.stream(segment.split("-"))
                .map((word) -> Character.toUpperCase(word.charAt(0)) + word.substring(1))
                .collect(Collectors.joining());
            Method getter = ReflectionUtils.findMethod(current.getClass(), "get" + capitalized);
            if (getter == null) {
                getter = ReflectionUtils.findMethod(current.getClass(), "is" + capitalized);
            }
            if (getter == null) {
                return null;
            }
            current = ReflectionUtils.invokeMethod(getter, current);
            if (current == null) {
                return Optional.empty();
            }
        }
        return Optional.of(current);
    }

    private static boolean sameValue(Object expected, Object metadata) {
        if (expected instanceof Duration duration) {
            return DurationStyle.detectAndParse(metadata.toString()).equals(duration);
        }
        if (expected instanceof Enum<?> constant) {
            return constant.name().equalsIgnoreCase(metadata.toString());
        }
        return expected.toString().equals(metadata.toString());
    }

    @Configuration(proxyBeanMethods = false)
    @Import(BootLine.DataRedis.class)
    @ImportAutoConfiguration(DistributedLockAutoConfiguration.class)
    static class LocksWithoutRedis {

    }

    @Configuration(proxyBeanMethods = false)
    static class OwnClient {

        @Bean(destroyMethod = "shutdown")
        RedisClient ownRedisClient() {
            return RedisClient.create("redis://" + redis.host() + ":" + redis.port());
        }

        @Bean
        RedisLockClient ownLockClient(RedisClient ownRedisClient) {
            return RedisLockClient.create(ownRedisClient, LockClientOptions.defaults());
        }
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable current = failure; current != null; current = current.getCause()) {
            messages.add(String.valueOf(current.getMessage()));
        }
        return String.join("\n", messages);
    }
}
