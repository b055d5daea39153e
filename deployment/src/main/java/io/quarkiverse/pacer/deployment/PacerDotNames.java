package io.quarkiverse.pacer.deployment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jboss.jandex.DotName;

import io.quarkiverse.pacer.delay.Delayed;
import io.quarkiverse.pacer.delay.DelayedMessage;
import io.quarkiverse.pacer.delay.DelayedQueueName;
import io.quarkiverse.pacer.delay.ReactiveTypedDelayedQueue;
import io.quarkiverse.pacer.delay.TypedDelayedQueue;
import io.quarkiverse.pacer.runtime.throttle.interceptor.MethodIndex;
import io.quarkiverse.pacer.runtime.throttle.interceptor.ThrottledInterceptor;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.PrincipalKeyResolver;
import io.quarkiverse.pacer.throttle.RequestKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The annotation and type names Pacer's build steps look for.
 */
final class PacerDotNames {

    static final DotName THROTTLED = DotName.createSimple(Throttled.class);
    static final DotName SCHEDULED = DotName.createSimple(io.quarkus.scheduler.Scheduled.class);
    static final DotName SCHEDULES = DotName.createSimple(io.quarkus.scheduler.Scheduled.Schedules.class);
    static final DotName SCHEDULED_EXECUTION = DotName.createSimple(io.quarkus.scheduler.ScheduledExecution.class);
    static final DotName SKIP_PREDICATE = DotName.createSimple(io.quarkus.scheduler.Scheduled.SkipPredicate.class);
    static final DotName CONSUMER = DotName.createSimple(java.util.function.Consumer.class);
    static final DotName FUNCTION = DotName.createSimple(java.util.function.Function.class);
    static final DotName THROTTLED_LIST = DotName.createSimple(Throttled.List.class);
    static final DotName THROTTLE_KEY = DotName.createSimple(ThrottleKey.class);
    static final DotName THROTTLE_KEY_RESOLVER = DotName.createSimple(ThrottleKeyResolver.class);
    static final DotName THROTTLE_LIMIT_RESOLVER = DotName.createSimple(ThrottleLimitResolver.class);
    static final DotName CLIENT_ADDRESS_KEY_RESOLVER = DotName.createSimple(ClientAddressKeyResolver.class);
    static final DotName REQUEST_KEY_RESOLVER = DotName.createSimple(RequestKeyResolver.class);
    static final DotName PRINCIPAL_KEY_RESOLVER = DotName.createSimple(PrincipalKeyResolver.class);
    static final DotName THROTTLED_INTERCEPTOR = DotName.createSimple(ThrottledInterceptor.class);
    static final DotName THROTTLED_METHOD_INDEX = DotName.createSimple(MethodIndex.class);

    // Quarkus REST and Jakarta REST, by name: the deployment module does not need their classes.
    static final DotName HTTP_METHOD = DotName.createSimple("jakarta.ws.rs.HttpMethod");
    static final DotName PATH_PARAM = DotName.createSimple("jakarta.ws.rs.PathParam");
    static final DotName QUERY_PARAM = DotName.createSimple("jakarta.ws.rs.QueryParam");
    static final DotName HEADER_PARAM = DotName.createSimple("jakarta.ws.rs.HeaderParam");
    static final DotName COOKIE_PARAM = DotName.createSimple("jakarta.ws.rs.CookieParam");
    static final DotName DEFAULT_VALUE = DotName.createSimple("jakarta.ws.rs.DefaultValue");
    static final DotName ENCODED = DotName.createSimple("jakarta.ws.rs.Encoded");
    static final DotName REST_PATH = DotName.createSimple("org.jboss.resteasy.reactive.RestPath");
    static final DotName REST_QUERY = DotName.createSimple("org.jboss.resteasy.reactive.RestQuery");
    static final DotName REST_HEADER = DotName.createSimple("org.jboss.resteasy.reactive.RestHeader");
    static final DotName REST_COOKIE = DotName.createSimple("org.jboss.resteasy.reactive.RestCookie");
    static final DotName CACHE_RESULT = DotName.createSimple("io.quarkus.cache.CacheResult");
    static final DotName CURRENT_IDENTITY_ASSOCIATION = DotName
            .createSimple("io.quarkus.security.identity.CurrentIdentityAssociation");

    static final DotName DELAYED = DotName.createSimple(Delayed.class);
    static final DotName DELAYED_MESSAGE = DotName.createSimple(DelayedMessage.class);
    static final DotName DELAYED_QUEUE_NAME = DotName.createSimple(DelayedQueueName.class);
    static final DotName TYPED_DELAYED_QUEUE = DotName.createSimple(TypedDelayedQueue.class);
    static final DotName REACTIVE_TYPED_DELAYED_QUEUE = DotName.createSimple(ReactiveTypedDelayedQueue.class);
    static final DotName UNI = DotName.createSimple(Uni.class);
    static final DotName COMPLETION_STAGE = DotName.createSimple(CompletionStage.class);
    static final DotName COMPLETABLE_FUTURE = DotName.createSimple(CompletableFuture.class);
    static final DotName MULTI = DotName.createSimple(Multi.class);
    static final DotName VOID = DotName.createSimple(Void.class);
    static final DotName STRING = DotName.createSimple(String.class);
    static final DotName BLOCKING = DotName.createSimple("io.smallrye.common.annotation.Blocking");
    static final DotName NON_BLOCKING = DotName.createSimple("io.smallrye.common.annotation.NonBlocking");
    static final DotName RUN_ON_VIRTUAL_THREAD = DotName.createSimple("io.smallrye.common.annotation.RunOnVirtualThread");
    /** The last parameter of a Kotlin {@code suspend} function, as the JVM sees it. */
    static final DotName KOTLIN_CONTINUATION = DotName.createSimple("kotlin.coroutines.Continuation");
    /** Quarkus Messaging's, optional: named, never loaded. */
    static final DotName CHANNEL = DotName.createSimple("org.eclipse.microprofile.reactive.messaging.Channel");
    static final DotName MUTINY_EMITTER = DotName.createSimple("io.smallrye.reactive.messaging.MutinyEmitter");

    private PacerDotNames() {
    }
}
