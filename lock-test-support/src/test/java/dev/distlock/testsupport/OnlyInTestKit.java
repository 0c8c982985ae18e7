package dev.distlock.testsupport;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Disables sample test classes unless they are run by {@link RedisExtensionTests} through the engine test kit,
 * which sets the configuration parameter {@value #PARAMETER}.
 */
final class OnlyInTestKit implements ExecutionCondition {

    static final String PARAMETER = "distlock.testkit";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return context.getConfigurationParameter(PARAMETER).isPresent()
                ? ConditionEvaluationResult.enabled("run by the engine test kit")
                : ConditionEvaluationResult.disabled("sample for RedisExtensionTests; runs only through it");
    }
}
