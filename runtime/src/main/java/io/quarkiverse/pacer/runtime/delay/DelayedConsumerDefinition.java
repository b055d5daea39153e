package io.quarkiverse.pacer.runtime.delay;

/**
 * What the build found about one {@code @Delayed} method, recorded into the application (a bean-style class so the
 * bytecode recorder can rebuild it).
 */
public class DelayedConsumerDefinition {

    private String queue;
    private String declaringClass;
    private String methodName;
    private boolean messageParameter;
    private PayloadKind payloadKind;
    private String payloadType;
    private HandlerCompletion returnKind;
    private HandlerExecution execution;
    private int concurrency;
    private int maxAttempts;
    private long backoffMillis;
    private long leaseMillis;
    private String forwardTo;

    /** {@code @Delayed("orders") declared on com.acme.Orders#expire()}, for messages. */
    public String describe() {
        if (forwardTo != null) {
            return "quarkus.pacer.delayed.\"" + queue + "\".forward-to=" + forwardTo;
        }
        return "@Delayed(\"" + queue + "\") declared on " + declaringClass + "#" + methodName + "()";
    }

    public String getQueue() {
        return queue;
    }

    public void setQueue(String queue) {
        this.queue = queue;
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

    /** Whether the method takes {@code DelayedMessage<T>} rather than {@code T}. */
    public boolean isMessageParameter() {
        return messageParameter;
    }

    public void setMessageParameter(boolean messageParameter) {
        this.messageParameter = messageParameter;
    }

    public PayloadKind getPayloadKind() {
        return payloadKind;
    }

    public void setPayloadKind(PayloadKind payloadKind) {
        this.payloadKind = payloadKind;
    }

    /** The payload type in Jackson's canonical form, e.g. {@code java.util.List<com.acme.OrderRef>}. */
    public String getPayloadType() {
        return payloadType;
    }

    public void setPayloadType(String payloadType) {
        this.payloadType = payloadType;
    }

    public HandlerCompletion getReturnKind() {
        return returnKind;
    }

    public void setReturnKind(HandlerCompletion returnKind) {
        this.returnKind = returnKind;
    }

    /** The thread that runs the method; the return kind's default when the build set none. */
    public HandlerExecution getExecution() {
        return execution != null ? execution : HandlerExecution.defaultFor(returnKind);
    }

    public void setExecution(HandlerExecution execution) {
        this.execution = execution;
    }

    public int getConcurrency() {
        return concurrency;
    }

    public void setConcurrency(int concurrency) {
        this.concurrency = concurrency;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public long getBackoffMillis() {
        return backoffMillis;
    }

    public void setBackoffMillis(long backoffMillis) {
        this.backoffMillis = backoffMillis;
    }

    /** The Quarkus Messaging channel receiving the queue's messages instead of a method, or {@code null}. */
    public String getForwardTo() {
        return forwardTo;
    }

    public void setForwardTo(String forwardTo) {
        this.forwardTo = forwardTo;
    }

    public long getLeaseMillis() {
        return leaseMillis;
    }

    public void setLeaseMillis(long leaseMillis) {
        this.leaseMillis = leaseMillis;
    }
}
