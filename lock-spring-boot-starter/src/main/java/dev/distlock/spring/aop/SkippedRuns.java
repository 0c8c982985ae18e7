package dev.distlock.spring.aop;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.distlock.core.LockNotAcquiredException;
import dev.distlock.spring.annotation.LockAdviceListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports the runs of {@code @Scheduled} methods that were skipped because another instance held the job's lock: at
 * INFO the first time per job (so a job that never runs here is visible in the log once), at DEBUG after that (it is
 * the normal case on every instance but one), and to the {@link LockAdviceListener}s (the skip counter).
 */
final class SkippedRuns {

    private static final Logger logger = LoggerFactory.getLogger(SkippedRuns.class);

    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    void skipped(LockOperation operation, LockNotAcquiredException ex, List<LockAdviceListener> listeners) {
        if (this.reported.add(operation.declaration())) {
            logger.info("Skipped a scheduled run of {}: lock '{}' is held by {}; this job runs on one instance at a"
                    + " time, and its further skips here are logged at DEBUG", operation.description(),
                    ex.lockName(), holder(ex));
        }
        else if (logger.isDebugEnabled()) {
            logger.debug("Skipped a scheduled run of {}: lock '{}' is held by {}", operation.description(),
                    ex.lockName(), holder(ex));
        }
        for (LockAdviceListener listener : listeners) {
            try {
                listener.scheduledRunSkipped(operation.declaration(), ex);
            }
            catch (RuntimeException failure) {
                logger.warn("A LockAdviceListener failed; ignoring it", failure);
            }
        }
    }

    private static String holder(LockNotAcquiredException ex) {
        String instance = ex.holderInstanceId();
        return (instance != null) ? "instance " + instance : "another owner";
    }
}
