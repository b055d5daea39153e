package io.quarkiverse.pacer.runtime.throttle.policy;

import io.quarkiverse.pacer.throttle.Algorithm;

/**
 * A policy as declared by {@code @Throttled}, collected and validated at build time and recorded for startup, where
 * configuration overrides are applied. A mutable bean only so the recorder can serialize it.
 */
public class PolicyDefinition {

    private String name;
    private Algorithm algorithm;
    private int limit;
    private String window;
    private int burst;
    private boolean shadow;
    private String declaredOn;
    private String limitsResolver;

    public PolicyDefinition() {
    }

    public PolicyDefinition(String name, Algorithm algorithm, int limit, String window, int burst, boolean shadow,
            String declaredOn, String limitsResolver) {
        this.name = name;
        this.algorithm = algorithm;
        this.limit = limit;
        this.window = window;
        this.burst = burst;
        this.shadow = shadow;
        this.declaredOn = declaredOn;
        this.limitsResolver = limitsResolver;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Algorithm getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(Algorithm algorithm) {
        this.algorithm = algorithm;
    }

    public int getLimit() {
        return limit;
    }

    public void setLimit(int limit) {
        this.limit = limit;
    }

    public String getWindow() {
        return window;
    }

    public void setWindow(String window) {
        this.window = window;
    }

    /** The burst; 0 means the limit. */
    public int getBurst() {
        return burst;
    }

    public void setBurst(int burst) {
        this.burst = burst;
    }

    public boolean isShadow() {
        return shadow;
    }

    public void setShadow(boolean shadow) {
        this.shadow = shadow;
    }

    /** Where it was declared, {@code com.acme.Api#ping()}, for messages. */
    public String getDeclaredOn() {
        return declaredOn;
    }

    public void setDeclaredOn(String declaredOn) {
        this.declaredOn = declaredOn;
    }

    /** The {@code ThrottleLimitResolver} bean class of {@code @Throttled(limits = ...)}, or {@code null}. */
    public String getLimitsResolver() {
        return limitsResolver;
    }

    public void setLimitsResolver(String limitsResolver) {
        this.limitsResolver = limitsResolver;
    }
}
