package dev.distlock.spring.aop;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;

import dev.distlock.spring.annotation.DistributedLock;
import dev.distlock.spring.annotation.OnNotAcquired;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Native-image hints for each bean with {@link DistributedLock @DistributedLock} methods, registered in
 * {@code META-INF/spring/aot.factories}: the locked methods (read for their annotation and parameter names, and
 * invoked by the proxy), the fallback methods of {@link OnNotAcquired#FALLBACK} (invoked by reflection; every method
 * of that name, the startup check picks the one that fits), the properties a key expression can reach from the
 * parameters ({@code #order.id}, {@code #order.items.![sku]}, as Spring registers types bound from JSON), and the bean's interfaces, whose methods a JDK proxy invokes.
 */
final class LockedBeanAotProcessor implements BeanRegistrationAotProcessor {

    /** The properties of the parameters, of their properties' types, and so on, as for JSON binding. */
    private static final BindingReflectionHintsRegistrar BINDING = new BindingReflectionHintsRegistrar();

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
        Map<Method, DistributedLock> locked = lockedMethods(beanClass);
        if (locked.isEmpty()) {
            return null;
        }
        return (generationContext, code) -> register(generationContext.getRuntimeHints().reflection(), beanClass,
                locked);
    }

    static Map<Method, DistributedLock> lockedMethods(Class<?> beanClass) {
        if (!AnnotationUtils.isCandidateClass(beanClass, DistributedLock.class)) {
            return Map.of();
        }
        return MethodIntrospector.selectMethods(beanClass,
                (MethodIntrospector.MetadataLookup<DistributedLock>) (method) -> Modifier.isStatic(
                        method.getModifiers()) ? null
                                : AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class));
    }

    private static void register(ReflectionHints reflection, Class<?> beanClass,
            Map<Method, DistributedLock> locked) {
        reflection.registerType(beanClass);
        locked.forEach((method, annotation) -> {
            reflection.registerMethod(method, ExecutableMode.INVOKE);
            String fallback = annotation.fallback().trim();
            if (annotation.onNotAcquired() == OnNotAcquired.FALLBACK && !fallback.isEmpty()) {
                ReflectionUtils.doWithMethods(beanClass,
                        (candidate) -> reflection.registerMethod(candidate, ExecutableMode.INVOKE),
                        (candidate) -> candidate.getName().equals(fallback) && !candidate.isBridge()
                                && !candidate.isSynthetic());
            }
            if (StringUtils.hasText(annotation.key()) || annotation.keys().length > 0) {
                BINDING.registerReflectionHints(reflection, method.getGenericParameterTypes());
            }
        });
        for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(beanClass)) {
            reflection.registerType(type, MemberCategory.INVOKE_DECLARED_METHODS);
        }
    }
}
