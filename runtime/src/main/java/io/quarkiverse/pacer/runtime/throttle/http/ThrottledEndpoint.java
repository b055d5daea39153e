package io.quarkiverse.pacer.runtime.throttle.http;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code @Throttled} REST resource method whose key the request carries (path, query, header or cookie parameters,
 * a {@code RequestKeyResolver} such as the client address, the principal, or none), found at build time: its request
 * filter decides before the method is dispatched. Bean-style for the recorder.
 */
public class ThrottledEndpoint {

    /** Where the key comes from. */
    public enum KeySource {
        /** The {@code @ThrottleKey} parameters, or one key per policy without any. */
        PARAMETERS,
        /** A {@code RequestKeyResolver} bean, reading the request. */
        REQUEST_RESOLVER,
        /** {@code PrincipalKeyResolver}: the request's security identity. */
        PRINCIPAL
    }

    private int methodIndex;
    private String declaringClass;
    private String methodName;
    private List<String> parameterTypes = new ArrayList<>();
    private List<EndpointKeyParameter> keyParameters = new ArrayList<>();
    private KeySource keySource = KeySource.PARAMETERS;

    /** The position of the method's definition in {@code ThrottleDefinitions#methods()}. */
    public int getMethodIndex() {
        return methodIndex;
    }

    public void setMethodIndex(int methodIndex) {
        this.methodIndex = methodIndex;
    }

    public String getDeclaringClass() {
        return declaringClass;
    }

    public void setDeclaringClass(String declaringClass) {
        this.declaringClass = declaringClass;
    }

    public String getMethodName() {
        return methodName;
    }

    public void setMethodName(String methodName) {
        this.methodName = methodName;
    }

    /** The erased parameter types, as {@code Class#getName()} spells them. */
    public List<String> getParameterTypes() {
        return parameterTypes;
    }

    public void setParameterTypes(List<String> parameterTypes) {
        this.parameterTypes = parameterTypes;
    }

    /** The {@code @ThrottleKey} parameters, in declaration order; empty for one key per policy. */
    public List<EndpointKeyParameter> getKeyParameters() {
        return keyParameters;
    }

    public void setKeyParameters(List<EndpointKeyParameter> keyParameters) {
        this.keyParameters = keyParameters;
    }

    public KeySource getKeySource() {
        return keySource;
    }

    public void setKeySource(KeySource keySource) {
        this.keySource = keySource;
    }
}
