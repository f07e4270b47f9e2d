package dev.bigfleet.proxmox.server.plugin;

/**
 * Sets the thread context class loader for a block and puts the previous one back, so libraries a
 * plugin uses (ServiceLoader, JAXP, Jackson modules) find the plugin's classes, not the server's.
 */
final class ThreadContextClassLoader implements AutoCloseable {
    private final Thread thread = Thread.currentThread();
    private final ClassLoader previous;

    ThreadContextClassLoader(ClassLoader loader) {
        this.previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
    }

    @Override
    public void close() {
        thread.setContextClassLoader(previous);
    }
}
