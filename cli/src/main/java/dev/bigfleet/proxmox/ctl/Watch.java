package dev.bigfleet.proxmox.ctl;

import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code list --watch}: a first List, then a delta List with the last cursor every interval, each
 * machine in it printed as a change (with the state it had when last seen). Runs until the thread
 * is interrupted (the process until Ctrl-C); a failed call ends it with that error.
 */
final class Watch {
    private final ProviderCall.Calls calls;
    private final Printer printer;
    private final ListFilter filter;
    private final Duration interval;
    private final Clock clock = Clock.systemUTC();
    private final Map<String, MachineState> seen = new HashMap<>();
    private final CompletableFuture<Void> failed = new CompletableFuture<>();

    Watch(ProviderCall.Calls calls, Printer printer, ListFilter filter, Duration interval) {
        this.calls = calls;
        this.printer = printer;
        this.filter = filter;
        this.interval = interval;
    }

    void run() throws Exception {
        MachineList first = calls.next().list(filter);
        if (printer.format() == OutputFormat.TABLE) {
            printer.machines(first);
        } else {
            Instant now = clock.instant();
            for (Machine m : first.getMachinesList()) {
                printer.change(now, m, null);
            }
        }
        remember(first);
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bigfleetctl-watch");
            t.setDaemon(true);
            return t;
        });
        ListFilter.Builder next = filter.toBuilder().setSinceRevision(first.getRevision());
        ScheduledFuture<?> polls = poller.scheduleWithFixedDelay(
                () -> poll(next), interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        try {
            failed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            polls.cancel(true);
            poller.shutdownNow();
        }
    }

    /** One delta List; the cursor moves on only once its changes are printed. */
    private void poll(ListFilter.Builder next) {
        try {
            MachineList delta = calls.next().list(next.build());
            Instant now = clock.instant();
            for (Machine m : delta.getMachinesList()) {
                printer.change(now, m, seen.get(m.getId()));
            }
            remember(delta);
            next.setSinceRevision(delta.getRevision());
        } catch (Exception | Error e) {
            failed.completeExceptionally(e);
            throw new IllegalStateException("watch stopped", e);
        }
    }

    private void remember(MachineList list) {
        for (Machine m : list.getMachinesList()) {
            seen.put(m.getId(), m.getState());
        }
    }
}
