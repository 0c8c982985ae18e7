package dev.distlock.spring.boot.actuate;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ReadinessGroupDefaultsTests {

    @Test
    void readinessGroupIsLeftAloneWhenTheProbesAreOff() {
        // without probes Boot has no readinessState contributor, and a group naming it fails the start
        MockEnvironment environment = new MockEnvironment().withProperty(ReadinessGroupDefaults.PROBES, "false");
        new ReadinessGroupDefaults().postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.containsProperty(ReadinessGroupDefaults.INCLUDE)).isFalse();
    }

    @Test
    void readinessGroupGetsTheLockContributorWhenTheProbesAreOn() {
        MockEnvironment environment = new MockEnvironment().withProperty(ReadinessGroupDefaults.PROBES, "true");
        new ReadinessGroupDefaults().postProcessEnvironment(environment, new SpringApplication());
        assertThat(environment.getProperty(ReadinessGroupDefaults.INCLUDE)).isEqualTo("readinessState,distributedLock");
    }
}
