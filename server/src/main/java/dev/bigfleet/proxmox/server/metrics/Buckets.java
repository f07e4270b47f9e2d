package dev.bigfleet.proxmox.server.metrics;

import java.util.Arrays;

/** Upper bounds of a histogram's buckets in seconds, ascending; {@code +Inf} is implied. */
public final class Buckets {
    /** Prometheus' defaults, for request latencies. */
    public static final Buckets REQUEST = new Buckets(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10);
    /**
     * Up to 30 minutes: clones, drains and guest-agent waits take minutes, and with the default
     * buckets they would all land in {@code +Inf}.
     */
    public static final Buckets LONG_RUNNING =
            new Buckets(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 900, 1800);
    /** Store commits: sub-millisecond to seconds. */
    public static final Buckets STORE = new Buckets(.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5);

    private final double[] bounds;

    public Buckets(double... bounds) {
        if (bounds.length == 0) {
            throw new IllegalArgumentException("a histogram needs at least one bucket");
        }
        for (int i = 1; i < bounds.length; i++) {
            if (!(bounds[i] > bounds[i - 1])) {
                throw new IllegalArgumentException("bucket bounds must ascend: " + Arrays.toString(bounds));
            }
        }
        this.bounds = bounds.clone();
    }

    public int size() {
        return bounds.length;
    }

    public double bound(int i) {
        return bounds[i];
    }

    /** The index of the first bucket whose bound is at least {@code value}; {@link #size()} for {@code +Inf}. */
    int indexOf(double value) {
        int i = Arrays.binarySearch(bounds, value);
        return i >= 0 ? i : -i - 1;
    }

    /** The bounds with {@code +Inf} appended, as the exposition wants them. */
    double[] withInfinity() {
        double[] all = Arrays.copyOf(bounds, bounds.length + 1);
        all[bounds.length] = Double.POSITIVE_INFINITY;
        return all;
    }
}
