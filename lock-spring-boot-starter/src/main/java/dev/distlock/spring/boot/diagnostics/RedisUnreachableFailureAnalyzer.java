package dev.distlock.spring.boot.diagnostics;

import dev.distlock.core.RedisUnreachableException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a lock client that could not reach Redis at startup in Boot's short form, with what to check. */
class RedisUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<RedisUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, RedisUnreachableException cause) {
        return new FailureAnalysis(cause.getMessage(), "Start Redis or point the locks at a running server:"
                + " spring.data.redis.* (the application's connection, reused by default) or distributed-lock.redis.*"
                + " (a dedicated one). With ACLs, the user needs the permissions listed in docs/spring-boot-starter.md."
                + " To start without locks, set distributed-lock.enabled=false.", cause);
    }
}
