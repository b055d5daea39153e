package io.quarkiverse.pacer.runtime.throttle.policy;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.pacer.throttle.OnLimit;

/**
 * One {@code @Throttled} method as computed at build time: its policies (in declaration order) with their costs and
 * how its key is formed. A mutable bean only so the recorder can serialize it.
 */
public class MethodDefinition {

    private String id;
    private List<String> policies = new ArrayList<>();
    private List<Integer> costs = new ArrayList<>();
    private List<Integer> keyParameters = new ArrayList<>();
    private String keyResolver;
    private OnLimit onLimit = OnLimit.REJECT;
    private long maxWaitMillis;
    private ThrottledReturnKind returnKind = ThrottledReturnKind.BLOCKING;

    /** {@code com.acme.Api#search(java.lang.String,java.lang.String)}, for messages and the Dev UI. */
    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public List<String> getPolicies() {
        return policies;
    }

    public void setPolicies(List<String> policies) {
        this.policies = policies;
    }

    public List<Integer> getCosts() {
        return costs;
    }

    public void setCosts(List<Integer> costs) {
        this.costs = costs;
    }

    /** Indexes of the {@code @ThrottleKey} parameters, in order. */
    public List<Integer> getKeyParameters() {
        return keyParameters;
    }

    public void setKeyParameters(List<Integer> keyParameters) {
        this.keyParameters = keyParameters;
    }

    /** The {@code ThrottleKeyResolver} bean class name, or {@code null}. */
    public String getKeyResolver() {
        return keyResolver;
    }

    public void setKeyResolver(String keyResolver) {
        this.keyResolver = keyResolver;
    }

    public OnLimit getOnLimit() {
        return onLimit;
    }

    public void setOnLimit(OnLimit onLimit) {
        this.onLimit = onLimit;
    }

    public long getMaxWaitMillis() {
        return maxWaitMillis;
    }

    public void setMaxWaitMillis(long maxWaitMillis) {
        this.maxWaitMillis = maxWaitMillis;
    }

    /** How the method returns, decided by the build from its declared return type. */
    public ThrottledReturnKind getReturnKind() {
        return returnKind;
    }

    public void setReturnKind(ThrottledReturnKind returnKind) {
        this.returnKind = returnKind;
    }
}
