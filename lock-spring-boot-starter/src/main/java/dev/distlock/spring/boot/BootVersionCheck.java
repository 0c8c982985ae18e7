package dev.distlock.spring.boot;

import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;

/**
 * Stops the start of an application whose Spring Boot the starter does not support, before any auto-configuration
 * fails with a bare {@code ClassNotFoundException}: Boot older than 3.5, or a Boot 3.x application with Boot 4 modules
 * on its class path (a build that mixes the two lines' jars).
 */
// Boot 3.5's interface, also run by Boot 4 (see ReadinessGroupDefaults)
@SuppressWarnings("deprecation")
public class BootVersionCheck implements EnvironmentPostProcessor {

    static final String SUPPORTED = "Spring Boot 3.5.x, 4.0.x or 4.1.x";

    /** A class of Boot 4's spring-boot-data-redis module, which Boot 3.5 does not have. */
    static final String BOOT4_DATA_REDIS =
            "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        ClassLoader classLoader = BootVersionCheck.class.getClassLoader();
        check(SpringBootVersion.getVersion(), (name) -> ClassUtils.isPresent(name, classLoader));
    }

    /**
     * @param bootVersion the application's Spring Boot version; {@code null} when unknown (no jar manifest), which
     * passes
     * @param classPresent whether a class is on the application's class path
     */
    static void check(@Nullable String bootVersion, Predicate<String> classPresent) {
        if (bootVersion == null) {
            return;
        }
        int[] version = majorMinor(bootVersion);
        if (version[0] < 3 || (version[0] == 3 && version[1] < 5)) {
            throw new IllegalStateException("distlock's lock-spring-boot-starter needs " + SUPPORTED
                    + ", but this application runs Spring Boot " + bootVersion + ". Upgrade Spring Boot to 3.5 or"
                    + " newer.");
        }
        if (version[0] == 3 && classPresent.test(BOOT4_DATA_REDIS)) {
            throw new IllegalStateException("This application runs Spring Boot " + bootVersion + " but has Spring"
                    + " Boot 4's spring-boot-data-redis module on its class path (" + BOOT4_DATA_REDIS + "). Boot 3.5"
                    + " has that auto-configuration in spring-boot-autoconfigure: remove the Boot 4 module (or the"
                    + " dependency that brings it, see `mvn dependency:tree`), or upgrade the application to Spring"
                    + " Boot 4. lock-spring-boot-starter supports " + SUPPORTED + ".");
        }
    }

    private static int[] majorMinor(String version) {
        String[] parts = version.split("[.-]");
        try {
            return new int[] { Integer.parseInt(parts[0]), (parts.length > 1) ? Integer.parseInt(parts[1]) : 0 };
        }
        catch (NumberFormatException ex) {
            // not a release-style version: let it through rather than refuse an application we cannot judge
            return new int[] { Integer.MAX_VALUE, 0 };
        }
    }
}
