package dev.bigfleet.proxmox.server.metrics;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Metric;
import java.time.Duration;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus-style histogram kept in the Dropwizard registry. Dropwizard's own histograms keep a
 * sample reservoir and export only quantiles, which cannot be aggregated across instances; fixed
 * buckets can.
 */
public final class BucketHistogram implements Metric, Counting {
    private final Buckets buckets;
    /** Per-bucket (not cumulative) counts; the last one is {@code +Inf}. */
    private final LongAdder[] counts;

    private final DoubleAdder sum = new DoubleAdder();

    public BucketHistogram(Buckets buckets) {
        this.buckets = buckets;
        this.counts = new LongAdder[buckets.size() + 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void observe(double seconds) {
        double value = Double.isNaN(seconds) || seconds < 0 ? 0 : seconds;
        counts[buckets.indexOf(value)].increment();
        sum.add(value);
    }

    public void observe(Duration duration) {
        observe(duration.toNanos() / 1e9);
    }

    @Override
    public long getCount() {
        long n = 0;
        for (LongAdder c : counts) {
            n += c.sum();
        }
        return n;
    }

    Buckets buckets() {
        return buckets;
    }

    /** Per-bucket counts, {@code +Inf} last; read bucket by bucket, so a concurrent scrape may be off by one. */
    long[] bucketCounts() {
        long[] out = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = counts[i].sum();
        }
        return out;
    }

    double sum() {
        return sum.sum();
    }
}
