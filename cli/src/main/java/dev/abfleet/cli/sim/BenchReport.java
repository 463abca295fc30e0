package dev.abfleet.cli.sim;

import dev.abfleet.bench.sim.BootTimeline;
import dev.abfleet.bench.sim.PairBalance;

import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.sim.SimBootRecord;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints the figures and checks of one scheduler benchmark run. */
final class BenchReport {
  /** The target: makespan within 10% of the lower bound. */
  static final double TARGET_RATIO = 1.10;

  private BenchReport() {}

  /** Prints everything; returns true when every experiment completed. */
  static boolean print(BenchOptions o, String modelLine, SchedulerBench.Result r, PrintStream out) {
    List<SimBootRecord> boots = r.boots();
    List<Experiment> experiments = r.experiments();
    long completed = experiments.stream().filter(e -> e.getState().equals("completed")).count();
    long panicked = boots.stream().filter(SimBootRecord::panicked).count();
    long timedOut = boots.stream().filter(SimBootRecord::timedOut).count();
    long sumNanos = BootTimeline.sumNanos(boots);
    double simulatedS = boots.stream().mapToLong(SimBootRecord::simulatedMs).sum() / 1000.0;
    double lowerBound = sumNanos / 1e9 / o.workers();
    double listSchedule = BootTimeline.listScheduleNanos(boots, o.workers()) / 1e9;
    double makespan = r.makespanNanos() / 1e9;
    double ratio = makespan / lowerBound;
    BootTimeline.Gaps gaps = BootTimeline.gaps(boots);
    int stale = experiments.stream().mapToInt(Experiment::getRejectedStale).sum();
    int retried = experiments.stream().mapToInt(Experiment::getRetriedBlocks).sum();
    List<String> overlapping = BootTimeline.hostsWithOverlap(boots);
    PairBalance balance = PairBalance.of(experiments);
    long hostsUsed = boots.stream().map(SimBootRecord::hostId).distinct().count();

    out.println("SIMULATION: abfleet bench scheduler -- simulated boots (hypervisor sim), not measurements");
    out.println("command:              " + o.commandLine());
    out.println("controller:           embedded, one node, " + (o.h2() ? "H2 file event journal (temp dir)" : "in-memory event journal"));
    out.println("workers:              " + o.workers() + " sim hosts over loopback gRPC (" + hostsUsed + " ran boots); " + modelLine);
    out.println("experiments:          " + completed + " of " + experiments.size() + " completed, " + o.pairs()
        + " pairs each, " + (o.mixed() ? "priorities pr, adhoc, nightly in turn" : "equal priority")
        + "; retried blocks " + retried);
    out.println("total boots:          " + boots.size() + " (panicked " + panicked + ", timed out " + timedOut + ")");
    out.println(f("sum of boot times:    %.3f s real (%.1f s simulated)", sumNanos / 1e9, simulatedS));
    out.println(f("lower bound:          %.3f s (sum of boot times / %d hosts)", lowerBound, o.workers()));
    out.println(f("list-schedule bound:  %.3f s (same blocks, greedy, zero controller overhead)", listSchedule));
    out.println(f("measured makespan:    %.3f s (first submit to last experiment completed)", makespan));
    out.println(f("ratio:                %.3f x lower bound, %.3f x list-schedule bound (target <= %.2f)",
        ratio, makespan / listSchedule, TARGET_RATIO));
    BootTimeline.Span span = BootTimeline.span(boots, r.firstSubmitNanos());
    out.println(f("timeline:             all submitted at %.3f s, first boot at %.3f s, every used host busy by %.3f s,"
        + " last boot ended %.3f s", (r.lastSubmitNanos() - r.firstSubmitNanos()) / 1e9, span.firstStart() / 1e9,
        span.allHostsStarted() / 1e9, span.lastEnd() / 1e9));
    out.println(f("boots/s:              %.1f", boots.size() / makespan));
    out.println(f("host idle gaps:       %.2f ms mean between blocks (n=%d), %.2f ms within a block (n=%d)",
        gaps.betweenBlocksMs(), gaps.betweenBlocks(), gaps.withinBlockMs(), gaps.withinBlock()));
    check(out, overlapping.isEmpty(), "no host ran two boots at once (" + boots.size() + " boots on " + hostsUsed
        + " hosts" + (overlapping.isEmpty() ? "" : "; overlapping: " + overlapping) + ")");
    // Per-host balance comes first (a host effect must not pass for an order effect); overall,
    // every host left with an odd number of pairs adds +-1, so overall balance is reported, not
    // required.
    out.println("note overall pair order: " + (balance.experiments() - balance.unbalancedExperiments()) + " of "
        + balance.experiments() + " experiments within AB/BA +-1, largest difference " + balance.maxOverall()
        + " (hosts left with an odd number of pairs each add +-1)");
    check(out, balance.unbalancedCells() == 0, "pair order AB/BA balanced (+-1) per host within each experiment ("
        + balance.unbalancedCells() + " of " + balance.cells() + " host/experiment cells with >= 2 pairs unbalanced)");
    check(out, stale == 0, "stale-epoch reports rejected: " + stale);
    if (o.mixed()) {
      // Preempted blocks re-run, so mixed priorities cost boots by design: no makespan target.
      out.println(f("note makespan %.1f%% over the lower bound (the target applies to equal priorities)",
          (ratio - 1) * 100));
    } else {
      check(out, ratio <= TARGET_RATIO, f("makespan within %.0f%% of the lower bound (%.1f%% over)",
          (TARGET_RATIO - 1) * 100, (ratio - 1) * 100));
    }
    return completed == experiments.size();
  }

  private static void check(PrintStream out, boolean pass, String what) {
    out.println((pass ? "PASS " : "FAIL ") + what);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
