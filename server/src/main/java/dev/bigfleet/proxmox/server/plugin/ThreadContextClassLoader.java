package dev.bigfleet.proxmox.server.plugin;

/**
 * Runs a call with a plugin's class loader as the thread's context class loader and puts the previous
 * one back, so libraries a plugin uses (ServiceLoader, JAXP, Jackson modules) find the plugin's
 * classes, not the server's.
 */
final class ThreadContextClassLoader {
    /** A call that may throw {@code E}. */
    @FunctionalInterface
    interface Call<T, E extends Exception> {
        T run() throws E;
    }

    /** A call without a result that may throw {@code E}. */
    @FunctionalInterface
    interface Action<E extends Exception> {
        void run() throws E;
    }

    private ThreadContextClassLoader() {}

    static <T, E extends Exception> T call(ClassLoader loader, Call<T, E> call) throws E {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    static <E extends Exception> void run(ClassLoader loader, Action<E> action) throws E {
        ThreadContextClassLoader.<Void, E>call(loader, () -> {
            action.run();
            return null;
        });
    }
}
