package dev.distlock.spring.aop;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.distlock.core.LockException;
import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.LockType;
import dev.distlock.spring.annotation.OnNotAcquired;
import dev.distlock.spring.boot.BootLine;
import dev.distlock.spring.boot.DistributedLockAutoConfiguration;
import dev.distlock.testsupport.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** Every mistake in a {@code @DistributedLock} declaration fails the application start, naming where and what. */
class LockedMethodValidationTests {

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(BootLine.DATA_REDIS,
                DistributedLockAutoConfiguration.class))
        .withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                "test.wait=250ms", "test.negative=-1s");

    @Test
    void validDeclarationsStart() {
        this.contextRunner.withBean(Valid.class).run((context) -> assertThat(context).hasNotFailed());
    }

    @Test
    void spelSyntaxError() {
        assertStartFails(SyntaxError.class, "SyntaxError.process(String)", "key = \"#id +\"",
                "not a valid SpEL expression");
    }

    @Test
    void unknownParameterName() {
        assertStartFails(UnknownParameter.class, "UnknownParameter.process(String, int)", "key = \"#ordr.id\"",
                "#ordr is not a parameter of the method (parameters: order, quantity");
    }

    @Test
    void parameterIndexOutOfRange() {
        assertStartFails(IndexOutOfRange.class, "IndexOutOfRange.process(String)", "key = \"#p1\"",
                "#p1 is out of range: the method has 1 parameter");
    }

    @Test
    void unknownBean() {
        assertStartFails(UnknownBean.class, "UnknownBean.process(String)", "key = \"@tenants.current()\"",
                "bean 'tenants'");
    }

    @Test
    void bareWordKeyIsNotMistakenForAName() {
        assertStartFails(BareWordKey.class, "BareWordKey.process()", "key = \"orders\"",
                "for a fixed lock name use name = \"orders\"");
    }

    @Test
    void neitherNameNorKey() {
        assertStartFails(NoName.class, "NoName.process()", "name = \"\"", "at least one must be set");
    }

    @Test
    void unparsableWaitTime() {
        assertStartFails(BadWaitTime.class, "BadWaitTime.process()", "waitTime = \"2 seconds\"",
                "it is not a duration");
    }

    @Test
    void negativeWaitTimeFromPlaceholder() {
        assertStartFails(NegativePlaceholderWait.class, "NegativePlaceholderWait.process()",
                "waitTime = \"${test.negative}\"", "it must not be negative (it resolved to \"-1s\")");
    }

    @Test
    void unresolvablePlaceholder() {
        assertStartFails(MissingPlaceholder.class, "MissingPlaceholder.process()", "waitTime = \"${test.missing}\"",
                "test.missing");
    }

    @Test
    void zeroLeaseTime() {
        assertStartFails(ZeroLease.class, "ZeroLease.process()", "leaseTime = \"0s\"", "a lease must be positive");
    }

    @Test
    void leaseTimeTooShortToBeHeld() {
        assertStartFails(TinyLease.class, "TinyLease.process()", "leaseTime = \"5ms\"",
                "shorter than the minimum lease of 10 ms");
    }

    @Test
    void missingFallbackMethod() {
        assertStartFails(MissingFallback.class, "MissingFallback.process(String)", "fallback = \"busy\"",
                "no method busy(String)");
    }

    @Test
    void fallbackWithIncompatibleReturnType() {
        assertStartFails(IncompatibleFallback.class, "IncompatibleFallback.process(String)",
                "fallback = \"busy\"", "its return type java.lang.Integer is not assignable to java.lang.String");
    }

    @Test
    void fallbackWithoutFallbackMode() {
        assertStartFails(FallbackWithoutMode.class, "FallbackWithoutMode.process(String)", "fallback = \"busy\"",
                "onNotAcquired is THROW");
    }

    @Test
    void fallbackModeWithoutFallback() {
        assertStartFails(FallbackModeWithoutMethod.class, "FallbackModeWithoutMethod.process()", "fallback = \"\"",
                "needs the name of a fallback method");
    }

    @Test
    void skipOnPrimitiveReturnType() {
        assertStartFails(SkipPrimitive.class, "SkipPrimitive.count()", "onNotAcquired = \"SKIP\"",
                "the method returns int");
    }

    @Test
    void scheduledMethodReturningAPrimitiveNeedsAnExplicitOutcome() {
        assertStartFails(ScheduledPrimitive.class, "ScheduledPrimitive.count()",
                "onNotAcquired = \"SKIP (the default for a @Scheduled method)\"", "has no empty value");
    }

    @Test
    void unparsableHoldAtLeast() {
        assertStartFails(BadHoldAtLeast.class, "BadHoldAtLeast.job()", "holdAtLeast = \"a minute\"",
                "it is not a duration");
    }

    @Test
    void holdAtLeastLongerThanTheFixedLease() {
        assertStartFails(HoldLongerThanLease.class, "HoldLongerThanLease.job()", "holdAtLeast = \"20s\"",
                "longer than the fixed leaseTime = \"10s\"");
    }

    @Test
    void holdAtLeastOnlyOnMethodsDoneWhenTheyReturn() {
        assertStartFails(HoldOnFuture.class, "HoldOnFuture.job()", "holdAtLeast = \"5s\"",
                "only supported on methods that return a plain value");
    }

    @Test
    void holdAtLeastNotOnASharedReadLock() {
        assertStartFails(HoldOnRead.class, "HoldOnRead.job()", "holdAtLeast = \"5s\"", "a read lock is shared");
    }

    @Test
    void keyAndKeysAreMutuallyExclusive() {
        assertStartFails(KeyAndKeys.class, "KeyAndKeys.process(String, String)", "keys = \"[#b]\"",
                "key and keys are mutually exclusive");
    }

    @Test
    void multiKeyOnlyWithReentrant() {
        assertStartFails(MultiKeyFair.class, "MultiKeyFair.process(String, String)", "type = \"FAIR\"",
                "only supported with type = REENTRANT");
    }

    @Test
    void emptyMultiKeyExpression() {
        assertStartFails(EmptyMultiKey.class, "EmptyMultiKey.process(String)", "keys[1] = \" \"",
                "must not be empty");
    }

    @Test
    void unknownParameterInAMultiKeyExpression() {
        assertStartFails(UnknownMultiKeyParameter.class, "UnknownMultiKeyParameter.process(String, String)",
                "keys[1] = \"#too\"", "#too is not a parameter of the method (parameters: from, to");
    }

    @Test
    void redLockWithoutNodesNamesTheProperty() {
        assertStartFails(RedLockWithoutNodes.class, "RedLockWithoutNodes.process(String)", "type = \"REDLOCK\"",
                "set distributed-lock.redlock.nodes to at least 3 redis:// URIs");
    }

    @Test
    void privateMethodCannotBeLocked() {
        assertStartFails(PrivateMethod.class, "PrivateMethod.process()", "", "the method is private");
    }

    @Test
    void spelErrorFailsASpringBootApplicationStart() {
        SpringApplication application = new SpringApplicationBuilder(BadApplication.class)
            .web(WebApplicationType.NONE)
            .properties("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
                    "spring.main.banner-mode=off")
            .build();
        assertThatException().isThrownBy(application::run)
            .satisfies((ex) -> assertThat(messages(ex)).contains("Invalid @DistributedLock on")
                .contains("UnknownParameter.process(String, int)")
                .contains("#ordr"));
    }

    @Test
    void futureThatIsNotACompletionStageIsRefusedWithTheReason() {
        assertStartFails(PlainFuture.class, "PlainFuture.process()", "return type = \"java.util.concurrent.Future\"",
                "a Future that is not a CompletionStage cannot say when its work ends");
    }

    @Test
    void publisherOtherThanMonoOrFluxIsRefused() {
        assertStartFails(FlowPublisher.class, "FlowPublisher.process()",
                "return type = \"java.util.concurrent.Flow$Publisher\"", "only Reactor's Mono and Flux are supported");
    }

    @Test
    void asyncAndReactiveReturnTypesStart() {
        this.contextRunner.withBean(AsyncAndReactive.class).run((context) -> assertThat(context).hasNotFailed());
    }

    static class PlainFuture {

        @DistributedLock(name = "future")
        public java.util.concurrent.Future<String> process() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }
    }

    static class FlowPublisher {

        @DistributedLock(name = "flow")
        public java.util.concurrent.Flow.Publisher<String> process() {
            return (subscriber) -> { };
        }
    }

    static class AsyncAndReactive {

        @DistributedLock(name = "a", onNotAcquired = OnNotAcquired.SKIP)
        public reactor.core.publisher.Mono<String> mono() {
            return reactor.core.publisher.Mono.just("x");
        }

        @DistributedLock(name = "b", onNotAcquired = OnNotAcquired.SKIP)
        public reactor.core.publisher.Flux<String> flux() {
            return reactor.core.publisher.Flux.just("x");
        }

        @DistributedLock(name = "c", onNotAcquired = OnNotAcquired.SKIP)
        public java.util.concurrent.CompletionStage<String> stage() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }

        @DistributedLock(name = "d")
        public java.util.concurrent.CompletableFuture<String> future() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }
    }

    private void assertStartFails(Class<?> beanClass, String method, String attribute, String reason) {
        this.contextRunner.withBean(beanClass).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                .contains("Invalid @DistributedLock on " + beanClass.getName().replace(beanClass.getSimpleName(), "")
                        + method + ": " + attribute)
                .contains(reason);
        });
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable current = failure; current != null; current = current.getCause()) {
            messages.add(String.valueOf(current.getMessage()));
        }
        return String.join("\n", messages);
    }

    static class Valid {

        @DistributedLock(name = "orders", key = "#order + ':' + #p1 + #a0.length() + #root.methodName",
                waitTime = "${test.wait}", leaseTime = "PT10S")
        public String process(String order, int quantity) {
            return order;
        }

        @Scheduled(fixedRate = 60_000)
        @DistributedLock(name = "job", holdAtLeast = "${test.hold:50s}")
        public void job() {
        }

        @DistributedLock(key = "#names.?[#this.length() > 1].size() + #map[key] + #root.args[0]")
        public void collections(List<String> names, java.util.Map<String, String> map) {
        }

        @DistributedLock(name = "skip", onNotAcquired = OnNotAcquired.SKIP)
        public Optional<String> skip() {
            return Optional.empty();
        }

        @DistributedLock(name = "fallback", key = "#id", onNotAcquired = OnNotAcquired.FALLBACK,
                fallback = "busy")
        public CharSequence fallback(String id) {
            return id;
        }

        String busy(String id, LockException ex) {
            return "busy";
        }

        @DistributedLock(name = "accounts", keys = { "#from", "#to.toUpperCase()" })
        public void multi(String from, String to) {
        }

        @DistributedLock(keys = "#skus")
        public void multiFromCollection(List<String> skus) {
        }

        @DistributedLock(name = "sku", keys = "#lines.![toUpperCase()]")
        public void multiFromProjection(List<String> lines) {
        }

        @DistributedLock(name = "doc", key = "#id", type = LockType.READ)
        public void read(String id) {
        }

        @DistributedLock(name = "doc", key = "#id", type = LockType.WRITE)
        public void write(String id) {
        }

        @DistributedLock(name = "queue", type = LockType.FAIR)
        public void fair() {
        }
    }

    static class KeyAndKeys {

        @DistributedLock(key = "#a", keys = "#b")
        public void process(String a, String b) {
        }
    }

    static class MultiKeyFair {

        @DistributedLock(keys = { "#a", "#b" }, type = LockType.FAIR)
        public void process(String a, String b) {
        }
    }

    static class EmptyMultiKey {

        @DistributedLock(keys = { "#a", " " })
        public void process(String a) {
        }
    }

    static class UnknownMultiKeyParameter {

        @DistributedLock(name = "accounts", keys = { "#from", "#too" })
        public void process(String from, String to) {
        }
    }

    static class RedLockWithoutNodes {

        @DistributedLock(name = "payments", key = "#id", type = LockType.REDLOCK)
        public void process(String id) {
        }
    }

    static class SyntaxError {

        @DistributedLock(key = "#id +")
        public void process(String id) {
        }
    }

    static class UnknownParameter {

        @DistributedLock(name = "orders", key = "#ordr.id")
        public void process(String order, int quantity) {
        }
    }

    static class IndexOutOfRange {

        @DistributedLock(key = "#p1")
        public void process(String id) {
        }
    }

    static class UnknownBean {

        @DistributedLock(key = "@tenants.current()")
        public void process(String id) {
        }
    }

    static class BareWordKey {

        @DistributedLock("orders")
        public void process() {
        }
    }

    static class NoName {

        @DistributedLock
        public void process() {
        }
    }

    static class BadWaitTime {

        @DistributedLock(name = "x", waitTime = "2 seconds")
        public void process() {
        }
    }

    static class NegativePlaceholderWait {

        @DistributedLock(name = "x", waitTime = "${test.negative}")
        public void process() {
        }
    }

    static class MissingPlaceholder {

        @DistributedLock(name = "x", waitTime = "${test.missing}")
        public void process() {
        }
    }

    static class ZeroLease {

        @DistributedLock(name = "x", leaseTime = "0s")
        public void process() {
        }
    }

    static class TinyLease {

        @DistributedLock(name = "x", leaseTime = "5ms")
        public void process() {
        }
    }

    static class MissingFallback {

        @DistributedLock(name = "x", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "busy")
        public String process(String id) {
            return id;
        }

        String busy(int id) {
            return "busy";
        }
    }

    static class IncompatibleFallback {

        @DistributedLock(name = "x", onNotAcquired = OnNotAcquired.FALLBACK, fallback = "busy")
        public String process(String id) {
            return id;
        }

        Integer busy(String id) {
            return 0;
        }
    }

    static class FallbackWithoutMode {

        @DistributedLock(name = "x", fallback = "busy")
        public String process(String id) {
            return id;
        }

        String busy(String id) {
            return "busy";
        }
    }

    static class FallbackModeWithoutMethod {

        @DistributedLock(name = "x", onNotAcquired = OnNotAcquired.FALLBACK)
        public void process() {
        }
    }

    static class SkipPrimitive {

        @DistributedLock(name = "x", onNotAcquired = OnNotAcquired.SKIP)
        public int count() {
            return 1;
        }
    }

    static class ScheduledPrimitive {

        @Scheduled(fixedRate = 60_000)
        @DistributedLock(name = "x")
        public int count() {
            return 1;
        }
    }

    static class BadHoldAtLeast {

        @DistributedLock(name = "x", holdAtLeast = "a minute")
        public void job() {
        }
    }

    static class HoldLongerThanLease {

        @DistributedLock(name = "x", leaseTime = "10s", holdAtLeast = "20s")
        public void job() {
        }
    }

    static class HoldOnFuture {

        @DistributedLock(name = "x", holdAtLeast = "5s")
        public CompletableFuture<Void> job() {
            return CompletableFuture.completedFuture(null);
        }
    }

    static class HoldOnRead {

        @DistributedLock(name = "x", type = LockType.READ, holdAtLeast = "5s")
        public void job() {
        }
    }

    static class PrivateMethod {

        public void run() {
            process();
        }

        @DistributedLock(name = "x")
        private void process() {
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class BadApplication {

        @Bean
        UnknownParameter unknownParameter() {
            return new UnknownParameter();
        }
    }
}
