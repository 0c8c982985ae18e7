package dev.distlock.spring.boot;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class BootVersionCheckTests {

    @Test
    void springBoot34IsRefusedWithTheVersionTheStarterNeeds() {
        assertThatIllegalStateException().isThrownBy(() -> BootVersionCheck.check("3.4.2", (name) -> false))
            .withMessageContaining("runs Spring Boot 3.4.2")
            .withMessageContaining("needs Spring Boot 3.5.x, 4.0.x or 4.1.x")
            .withMessageContaining("Upgrade Spring Boot to 3.5 or newer");
    }

    @Test
    void boot4ModulesOnABoot35ClassPathAreNamed() {
        assertThatIllegalStateException()
            .isThrownBy(() -> BootVersionCheck.check("3.5.7", BootVersionCheck.BOOT4_DATA_REDIS::equals))
            .withMessageContaining("runs Spring Boot 3.5.7 but has Spring Boot 4's spring-boot-data-redis module")
            .withMessageContaining("remove the Boot 4 module");
    }

    @Test
    void supportedLinesAndUnknownVersionsPass() {
        assertThatNoException().isThrownBy(() -> {
            BootVersionCheck.check("3.5.7", (name) -> false);
            BootVersionCheck.check("4.0.7", BootVersionCheck.BOOT4_DATA_REDIS::equals);
            BootVersionCheck.check("4.1.1-SNAPSHOT", (name) -> true);
            BootVersionCheck.check(null, (name) -> true);
        });
    }

    @Test
    void theCheckRunsOnThisApplicationsBootAndPasses() {
        assertThatNoException().isThrownBy(() -> new BootVersionCheck()
            .postProcessEnvironment(new org.springframework.core.env.StandardEnvironment(), null));
    }
}
