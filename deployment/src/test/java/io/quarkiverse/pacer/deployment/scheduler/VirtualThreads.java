package io.quarkiverse.pacer.deployment.scheduler;

/** Whether code runs on a virtual thread, from tests built for Java 17 that may run on a later JVM. */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /** {@code Thread.currentThread().isVirtual()}, false on a JVM without virtual threads. */
    static boolean current() {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
        } catch (NoSuchMethodException e) {
            return false;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Quarkus runs a task meant for a virtual thread on a worker thread where the JVM has no virtual threads. */
    static boolean available() {
        return Runtime.version().feature() >= 21;
    }
}
