package dev.distlock.spring.boot;

import dev.distlock.core.LockTemplate;
import dev.distlock.core.reactive.ReactiveLockTemplate;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A {@link ReactiveLockTemplate} with the {@link LockTemplate}'s defaults, when Reactor is on the classpath. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "reactor.core.publisher.Mono")
class ReactiveLockTemplateConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReactiveLockTemplate reactiveLockTemplate(LockTemplate lockTemplate) {
        return new ReactiveLockTemplate(lockTemplate);
    }
}
