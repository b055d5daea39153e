package io.quarkiverse.pacer.deployment;

import org.jboss.jandex.DotName;

import io.quarkiverse.pacer.runtime.throttle.ThrottledInterceptor;
import io.quarkiverse.pacer.runtime.throttle.ThrottledMethodIndex;
import io.quarkiverse.pacer.throttle.ClientAddressKeyResolver;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;
import io.quarkiverse.pacer.throttle.Throttled;

/**
 * The annotation and type names Pacer's build steps look for.
 */
final class PacerDotNames {

    static final DotName THROTTLED = DotName.createSimple(Throttled.class);
    static final DotName THROTTLED_LIST = DotName.createSimple(Throttled.List.class);
    static final DotName THROTTLE_KEY = DotName.createSimple(ThrottleKey.class);
    static final DotName THROTTLE_KEY_RESOLVER = DotName.createSimple(ThrottleKeyResolver.class);
    static final DotName CLIENT_ADDRESS_KEY_RESOLVER = DotName.createSimple(ClientAddressKeyResolver.class);
    static final DotName THROTTLED_INTERCEPTOR = DotName.createSimple(ThrottledInterceptor.class);
    static final DotName THROTTLED_METHOD_INDEX = DotName.createSimple(ThrottledMethodIndex.class);

    private PacerDotNames() {
    }
}
