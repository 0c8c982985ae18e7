package dev.distlock.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

/**
 * Runs the annotated method while holding a distributed lock on Redis, through the same path as
 * {@link dev.distlock.core.LockTemplate#execute(dev.distlock.core.RedisLock, java.time.Duration,
 * java.time.Duration, dev.distlock.core.LockCallback) LockTemplate.execute}: acquire (waiting up to
 * {@link #waitTime()}), run the method, release, also when the method throws.
 *
 * <pre>{@code
 * @DistributedLock(name = "orders", key = "#order.id")
 * public Receipt reserve(Order order) { ... }
 * }</pre>
 *
 * <p><b>Lock name.</b> {@code name + ":" + evaluatedKey} when both are given, {@code name} alone when the key is empty.
 * Without a name, the method's {@code ClassName.methodName} stands in for it ({@code "OrderService.reserve:42"}), so
 * equal keys of two methods (an order id and a user id "42") never share a lock; give two methods the same
 * {@code name} to have them share one. At least one of name and key must be set. The client's key prefix
 * ({@code distributed-lock.key-prefix}) is added in front by the lock client.
 *
 * <p><b>Lock type.</b> {@link #type()} picks the kind of lock: {@link LockType#REENTRANT} (default),
 * {@link LockType#FAIR}, {@link LockType#READ}, {@link LockType#WRITE} or {@link LockType#REDLOCK}.
 *
 * <p><b>Several keys.</b> {@link #keys()} takes several SpEL expressions instead of {@link #key()}; every key gives one
 * lock name ({@code name + ":" + key}) and all of them are acquired all or nothing, in a fixed order, so two calls
 * with overlapping key sets cannot deadlock:
 *
 * <pre>{@code
 * @DistributedLock(name = "account", keys = { "#from.id", "#to.id" })
 * public void transfer(Account from, Account to, Money amount) { ... }
 * }</pre>
 *
 * A key expression may also evaluate to a collection or array, whose elements are keys ({@code keys = "#skus"}).
 * Several keys are supported with {@link LockType#REENTRANT} only.
 *
 * <p><b>Key.</b> A SpEL expression evaluated for every call: parameters by name ({@code #order.id}, methods must be
 * compiled with {@code -parameters}, which Spring Boot's build plugins do) or by index ({@code #p0}, {@code #a0}),
 * {@code #root.method}, {@code #root.args}, {@code #root.target}, {@code #root.targetClass}, and beans as
 * {@code @beanName}. A key that evaluates to {@code null} or blank fails with an {@link IllegalArgumentException}
 * naming the expression, before anything is sent to Redis; so does a {@link #keys()} element that is {@code null} or
 * blank, or a key collection that is empty.
 *
 * <p><b>Validation.</b> Every annotated method of every bean is checked when the bean is created: the expression
 * parses and only names existing parameters and beans, durations parse and are in range, the fallback method exists
 * with a compatible signature, {@link OnNotAcquired#SKIP} is only used where a method can return "nothing",
 * {@link #key()} and {@link #keys()} are not both set, several keys only come with {@link LockType#REENTRANT}, and
 * {@link LockType#REDLOCK} has its nodes configured. A mistake fails the application start with a message naming the
 * class, method, attribute and value.
 *
 * <p><b>Ordering.</b> The advice runs outside {@code @Transactional} by default
 * ({@code distributed-lock.advice-order}; an order inside the transaction advice fails the start), so the lock is
 * released after the transaction commits or rolls back. A call that joins a surrounding transaction keeps the lock
 * until that transaction completes. With lost-lease policy {@code FAIL}, a {@code LockLostException} may reach the
 * caller after the work has committed.
 *
 * <p><b>Scheduled jobs.</b> On a method that also carries Spring's
 * {@link org.springframework.scheduling.annotation.Scheduled @Scheduled}, the defaults suit a job that must run on one
 * instance at a time: {@link #waitTime()} defaults to {@code "0"} (one attempt) and {@link #onNotAcquired()} to
 * {@link OnNotAcquired#SKIP}, so a run that finds the job locked is skipped (logged at DEBUG, at INFO the first time
 * per job, and counted in {@code distlock.scheduled.skipped}). The lease is watchdog-renewed for as long as the run
 * lasts, and {@link #holdAtLeast()} keeps the lock after a short run so that an instance whose schedule fires a little
 * later does not run the job again:
 *
 * <pre>{@code
 * @Scheduled(fixedRate = 60_000)
 * @DistributedLock(name = "report", holdAtLeast = "50s")
 * public void sendReport() { ... }
 * }</pre>
 *
 * Attributes set explicitly still win.
 *
 * <p><b>Reentrancy.</b> A nested call on the same thread that needs a lock it already holds (same type and name, or
 * the same keys) re-enters it; the lock is released when the outermost call returns. The lease of the innermost call
 * is available to the method through {@link LockContext#currentLease()}.
 *
 * <p>Usable as a meta-annotation: a composed annotation may fix some attributes and expose others with
 * {@link AliasFor @AliasFor}. Like all Spring proxy-based advice, calls from within the same object
 * ({@code this.method()}) are not intercepted.
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

    /** Alias for {@link #key()}. */
    @AliasFor("key")
    String value() default "";

    /**
     * SpEL expression for the variable part of the lock name, e.g. {@code "#order.id"}. Empty: the lock name is
     * {@link #name()} alone. Not together with {@link #keys()}.
     */
    @AliasFor("value")
    String key() default "";

    /**
     * SpEL expressions for a multi-key lock, e.g. {@code { "#from.id", "#to.id" }}: every key (an expression may also
     * evaluate to a collection or array of keys) gives one lock name, {@code name + ":" + key} (or
     * {@code ClassName.methodName + ":" + key} when {@link #name()} is empty), and all of them are acquired all or
     * nothing. Duplicates count once. The lease of the call reports one fencing token per lock name in
     * {@link dev.distlock.core.LockLease#fencingTokens()}. Only with {@link LockType#REENTRANT}; not together with
     * {@link #key()}.
     */
    String[] keys() default {};

    /**
     * Static lock name, or prefix of the evaluated {@link #key()} (joined with {@code ':'}), e.g. {@code "orders"}.
     * Not an expression.
     */
    String name() default "";

    /**
     * How long to wait for the lock, as a duration string: {@code "2s"}, {@code "500ms"}, {@code "PT2S"}, or
     * {@code "0"} for exactly one attempt; {@code ${...}} placeholders are resolved. Empty: the {@code LockTemplate}'s
     * default wait time ({@code distributed-lock.wait-time} for the auto-configured template).
     */
    String waitTime() default "";

    /**
     * Fixed lease after which the lock expires even if the method is still running, as a duration string with
     * placeholders like {@link #waitTime()}. Empty (recommended): the {@code LockTemplate}'s default lease, which for
     * the auto-configured template is a lease renewed by the watchdog for as long as the method runs.
     */
    String leaseTime() default "";

    /** The kind of lock; see {@link LockType}. */
    LockType type() default LockType.REENTRANT;

    /**
     * What to do when the lock stays busy for the whole wait time. {@link OnNotAcquired#DEFAULT}: throw, or skip the
     * run on a {@code @Scheduled} method.
     */
    OnNotAcquired onNotAcquired() default OnNotAcquired.DEFAULT;

    /**
     * The least time the lock is kept from the moment it was acquired, as a duration string with placeholders like
     * {@link #waitTime()}, e.g. {@code "50s"}: a run that ends (returns or throws) earlier leaves the lock held for the
     * rest of it, so nobody else takes it before. Meant for scheduled jobs, as ShedLock's {@code lockAtLeastFor}: set
     * it a little below the period so that an instance whose clock or schedule is slightly behind finds the job
     * locked instead of running it a second time. During the rest the lease is still renewed (and a loss still
     * reported), and it is released when the rest is over or the application shuts down; a crashed instance's lock
     * expires after its lease. Empty or {@code "0"}: released when the method returns. Only for methods that return
     * a plain value (not a {@code CompletionStage}, {@code Mono} or {@code Flux}); with a fixed {@link #leaseTime()},
     * at most that lease. Not applied when the call runs inside a surrounding transaction (the lock is then released
     * when the transaction ends).
     */
    String holdAtLeast() default "";

    /**
     * Name of the method to call instead when the lock is not acquired, with {@link OnNotAcquired#FALLBACK}. It must be
     * declared by the same bean class (any visibility) with the same parameter types, optionally followed by a
     * parameter that accepts a {@link dev.distlock.core.LockNotAcquiredException} (preferred when both exist), and
     * return a type assignable to the annotated method's. It is called on the target object, so it is not itself
     * advised (no transaction or lock around it).
     */
    String fallback() default "";
}
