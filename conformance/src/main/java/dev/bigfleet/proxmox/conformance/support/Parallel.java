package dev.bigfleet.proxmox.conformance.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * Runs N tasks on N threads released at the same instant, so racing requests really race. Results
 * come back in task order; any exception (assertion failures included) fails the caller.
 */
public final class Parallel {
    private static final long TIMEOUT_SECONDS = 90;

    private Parallel() {}

    public static <T> List<T> run(int n, IntFunction<T> task) {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch ready = new CountDownLatch(n);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return task.apply(index);
                }));
            }
            ready.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            go.countDown();
            List<T> results = new ArrayList<>(n);
            for (Future<T> f : futures) {
                results.add(f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            return results;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new AssertionError("parallel task failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (TimeoutException e) {
            throw new AssertionError("parallel tasks did not finish within " + TIMEOUT_SECONDS + " s", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
