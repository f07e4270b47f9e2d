package dev.bigfleet.proxmox.server.metrics;

import com.codahale.metrics.Counter;
import java.util.function.LongSupplier;

/**
 * A Dropwizard counter whose value lives elsewhere (a component that already counts), so it is
 * exported as a counter without a second copy of the count.
 */
final class CountingView extends Counter {
    private final LongSupplier count;

    CountingView(LongSupplier count) {
        this.count = count;
    }

    @Override
    public long getCount() {
        return count.getAsLong();
    }

    @Override
    public void inc(long n) {
        throw new UnsupportedOperationException("a view counter is read-only");
    }

    @Override
    public void dec(long n) {
        throw new UnsupportedOperationException("a view counter is read-only");
    }
}
