package dev.bigfleet.proxmox.server;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Runs a handler on SIGTERM and SIGINT instead of letting the JVM exit at once, so the provider stops
 * gracefully and exits 0 (a shutdown hook could not: the JVM then exits 143). The JDK's {@code
 * sun.misc.Signal} is the one way to do that; it is reached reflectively because javac warns about
 * every direct use of a {@code jdk.unsupported} class, and this build treats warnings as errors.
 */
final class TerminationSignals {
    private static final List<String> SIGNALS = List.of("TERM", "INT");

    private TerminationSignals() {}

    static void onTermination(Runnable handler) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object proxy = Proxy.newProxyInstance(
                    handlerType.getClassLoader(),
                    new Class<?>[] {handlerType},
                    (self, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            handler.run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(self);
                        case "equals" -> self == args[0];
                        default -> "termination signal handler";
                    });
            Method handle = signal.getMethod("handle", signal, handlerType);
            for (String name : SIGNALS) {
                handle.invoke(null, signal.getConstructor(String.class).newInstance(name), proxy);
            }
        } catch (ClassNotFoundException
                | NoSuchMethodException
                | IllegalAccessException
                | InstantiationException
                | InvocationTargetException e) {
            throw new IllegalStateException("cannot handle SIGTERM and SIGINT on this JVM", e);
        }
    }
}
