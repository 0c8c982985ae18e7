package dev.distlock.sample;

/**
 * The outcome of {@code POST /demo/semaphore}.
 *
 * @param semaphore the semaphore the jobs shared
 * @param workers jobs started at once
 * @param permits the permit count they ran under
 * @param finished jobs that ran and returned their permit
 * @param mostRunningAtOnce most jobs of this instance inside their permit at one moment: never above {@code permits}
 * @param mostHeldOnRedis most permits Redis showed held while a job ran (other instances' included)
 */
public record SemaphoreReport(String semaphore, int workers, int permits, int finished, int mostRunningAtOnce,
        int mostHeldOnRedis) {
}
