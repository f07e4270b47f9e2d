package dev.bigfleet.proxmox.backend.fake;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Runs a backend call on its own thread, so a test can interrupt it and inspect how it ended. */
final class AsyncCall {
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private final long startedNanos = System.nanoTime();
    private volatile Throwable failure;
    private volatile boolean interruptedAtEnd;
    private volatile long finishedNanos;

    private AsyncCall(Body body) {
        thread = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure = t;
            } finally {
                interruptedAtEnd = Thread.currentThread().isInterrupted();
                finishedNanos = System.nanoTime();
                done.countDown();
            }
        }, "async-call");
        thread.setDaemon(true);
    }

    static AsyncCall start(Body body) {
        AsyncCall call = new AsyncCall(body);
        call.thread.start();
        return call;
    }

    void interrupt() {
        thread.interrupt();
    }

    /** Whether the call ended within {@code wait}. */
    boolean await(Duration wait) throws InterruptedException {
        return done.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean finished() {
        return done.getCount() == 0;
    }

    Throwable failure() {
        return failure;
    }

    boolean interruptedAtEnd() {
        return interruptedAtEnd;
    }

    Duration elapsed() {
        return Duration.ofNanos(finishedNanos - startedNanos);
    }
}
