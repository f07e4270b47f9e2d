package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Capped Lists without a cursor start at a varying point of the ring of machines, yet a caller who
 * keeps passing back the cursor it was handed sees every machine exactly once and then an empty
 * page, with any machine that changed meanwhile seen again in its changed form. Checked over random
 * interleavings of changes, other callers' capped Lists and several paging callers at once.
 */
class ListPagingProperties {
    private static final int MACHINES = 24;

    /** One step: a change to a machine, a capped List by a passer-by, or the next page of a pager. */
    record Step(Kind kind, int index, int cap) {}

    enum Kind {
        CHANGE,
        PASSER_BY,
        START_PAGER,
        NEXT_PAGE
    }

    @Provide
    Arbitrary<List<Step>> interleavings() {
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.of(Kind.class),
                        Arbitraries.integers().between(0, MACHINES - 1),
                        Arbitraries.integers().between(1, 9))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(120);
    }

    @Property(tries = 200)
    @Label("paging with the cursor sees every machine once, and every change after it happened")
    void pagingSeesEveryMachineOnceAndEveryChange(@ForAll("interleavings") List<Step> steps) throws Exception {
        Duration t = Duration.ofSeconds(30);
        try (EngineUnderTest under =
                new EngineUnderTest(new InMemoryStateStore(), new TransitionTimeouts(t, t, t, t), MACHINES)) {
            LifecycleEngine engine = under.engine;
            // a machine's price tells its versions apart: a change sets it to a number never used before
            Map<String, Double> prices = new HashMap<>();
            for (String id : under.ids) {
                prices.put(id, engine.get(id).orElseThrow().pricePerHour());
            }
            double nextPrice = 1000;
            List<Pager> pagers = new ArrayList<>();
            for (Step step : steps) {
                switch (step.kind()) {
                    case CHANGE -> {
                        String id = under.ids.get(step.index());
                        double price = nextPrice++;
                        prices.put(id, price);
                        engine.refreshFacts(
                                id, m -> m.toBuilder().pricePerHour(price).build());
                        for (Pager p : pagers) {
                            p.changedMeanwhile.add(id);
                        }
                    }
                    case PASSER_BY ->
                        assertThat(engine.list(new ListQuery(Set.of(), step.cap(), null))
                                        .machines())
                                .hasSize(Math.min(step.cap(), MACHINES));
                    case START_PAGER -> pagers.add(new Pager(step.cap()));
                    case NEXT_PAGE -> {
                        if (!pagers.isEmpty()) {
                            Pager p = pagers.get(step.index() % pagers.size());
                            if (p.nextPage(engine)) {
                                p.check(prices, under.ids);
                                pagers.remove(p);
                            }
                        }
                    }
                }
            }
            for (Pager p : pagers) {
                while (!p.nextPage(engine)) {
                    assertThat(p.pages).as("pages of one walk").isLessThan(10 * MACHINES);
                }
                p.check(prices, under.ids);
            }
        }
    }

    @Property(tries = 50)
    @Label("back-to-back capped Lists without a cursor hand out different machines")
    void backToBackCappedListsHandOutDifferentMachines(@ForAll @IntRange(min = 1, max = MACHINES) int picks)
            throws Exception {
        Duration t = Duration.ofSeconds(30);
        try (EngineUnderTest under =
                new EngineUnderTest(new InMemoryStateStore(), new TransitionTimeouts(t, t, t, t), MACHINES)) {
            List<String> picked = new ArrayList<>();
            for (int i = 0; i < picks; i++) {
                picked.add(under.engine
                        .list(new ListQuery(Set.of(), 1, null))
                        .machines()
                        .get(0)
                        .id());
            }
            assertThat(picked).doesNotHaveDuplicates();
        }
    }

    /** A caller paging with a cap, passing back each cursor, until an empty page. */
    private static final class Pager {
        final int cap;
        final List<Machine> seen = new ArrayList<>();
        final Set<String> changedMeanwhile = new HashSet<>();
        byte[] cursor;
        boolean started;
        int pages;

        Pager(int cap) {
            this.cap = cap;
        }

        /** Takes one page; true once the page was empty. */
        boolean nextPage(LifecycleEngine engine) {
            ListResult page = engine.list(new ListQuery(Set.of(), cap, started ? cursor : null));
            started = true;
            pages++;
            cursor = page.revision();
            assertThat(page.machines()).hasSizeLessThanOrEqualTo(cap);
            seen.addAll(page.machines());
            return page.machines().isEmpty();
        }

        void check(Map<String, Double> prices, List<String> ids) {
            Map<String, Integer> sightings = new HashMap<>();
            Map<String, Double> lastSeenVersion = new HashMap<>();
            for (Machine m : seen) {
                sightings.merge(m.id(), 1, Integer::sum);
                lastSeenVersion.put(m.id(), m.pricePerHour());
            }
            assertThat(sightings.keySet()).as("machines seen").containsExactlyInAnyOrderElementsOf(ids);
            for (String id : ids) {
                if (!changedMeanwhile.contains(id)) {
                    assertThat(sightings.get(id))
                            .as("sightings of unchanged %s", id)
                            .isEqualTo(1);
                }
                assertThat(lastSeenVersion.get(id))
                        .as("last sighting of %s shows its latest change", id)
                        .isEqualTo(prices.get(id));
            }
        }
    }
}
