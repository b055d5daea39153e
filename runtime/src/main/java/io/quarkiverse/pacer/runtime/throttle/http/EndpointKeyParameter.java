package io.quarkiverse.pacer.runtime.throttle.http;

/**
 * Where a {@code @ThrottleKey} parameter of a REST endpoint comes from in the request, found at build time: read in
 * the request filter exactly as Quarkus REST reads it for the method (same name, same decoding, same default), so both
 * form the same key. Bean-style for the recorder.
 */
public class EndpointKeyParameter {

    /** The request part a parameter is bound to. */
    public enum Source {
        PATH,
        QUERY,
        HEADER,
        COOKIE
    }

    private int position;
    private Source source;
    private String name;
    private boolean encoded;
    private String defaultValue;

    public EndpointKeyParameter() {
    }

    public EndpointKeyParameter(int position, Source source, String name, boolean encoded, String defaultValue) {
        this.position = position;
        this.source = source;
        this.name = name;
        this.encoded = encoded;
        this.defaultValue = defaultValue;
    }

    /** The parameter's position in the method's parameter list. */
    public int getPosition() {
        return position;
    }

    public void setPosition(int position) {
        this.position = position;
    }

    public Source getSource() {
        return source;
    }

    public void setSource(Source source) {
        this.source = source;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    /** {@code @Encoded}: the raw path or query value, not decoded. */
    public boolean isEncoded() {
        return encoded;
    }

    public void setEncoded(boolean encoded) {
        this.encoded = encoded;
    }

    /** {@code @DefaultValue}, or {@code null}. */
    public String getDefaultValue() {
        return defaultValue;
    }

    public void setDefaultValue(String defaultValue) {
        this.defaultValue = defaultValue;
    }
}
