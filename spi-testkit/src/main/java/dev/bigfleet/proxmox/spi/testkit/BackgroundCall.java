package dev.bigfleet.proxmox.spi.testkit;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A backend call run on a thread of its own, so a test can cancel or interrupt it while it is in
 * flight, as the engine does at a deadline, and then see how and when it ended.
 */
public final class BackgroundCall {
    /** The call; anything it throws is kept as {@link #failure()}. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final Thread thread;
    private final CountDownLatch done = new CountDownLatch(1);
    private final long startedNanos = System.nanoTime();
    private volatile Throwable failure;
    private volatile boolean interruptedAtEnd;
    private volatile long finishedNanos;

    private BackgroundCall(Body body) {
        thread = new Thread(
                () -> {
                    try {
                        body.run();
                    } catch (Throwable t) {
                        failure = t;
                    } finally {
                        interruptedAtEnd = Thread.currentThread().isInterrupted();
                        finishedNanos = System.nanoTime();
                        done.countDown();
                    }
                },
                "background-call");
        thread.setDaemon(true);
    }

    /** Starts {@code body} at once on a new daemon thread. */
    public static BackgroundCall start(Body body) {
        BackgroundCall call = new BackgroundCall(body);
        call.thread.start();
        return call;
    }

    /** Interrupts the thread running the call. */
    public void interrupt() {
        thread.interrupt();
    }

    /** Whether the call ended within {@code wait}. */
    public boolean await(Duration wait) throws InterruptedException {
        return done.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean finished() {
        return done.getCount() == 0;
    }

    /** What the call threw, or null when it returned normally (or is still running). */
    public Throwable failure() {
        return failure;
    }

    /** Whether the thread's interrupt flag was set when the call ended. */
    public boolean interruptedAtEnd() {
        return interruptedAtEnd;
    }

    /** From start to end of the call; only meaningful once it {@link #finished()}. */
    public Duration elapsed() {
        return Duration.ofNanos(finishedNanos - startedNanos);
    }
}
