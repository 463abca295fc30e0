package dev.abfleet.cli.nightly;

import dev.abfleet.cli.ExitCodes;

import dev.abfleet.config.FleetConfig;
import dev.abfleet.cli.history.HistoryEntry;
import dev.abfleet.cli.history.HistoryFile;
import dev.abfleet.proto.fleet.v1.Arm;
import dev.abfleet.proto.fleet.v1.Artifact;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.proto.fleet.v1.ExperimentSpec;
import dev.abfleet.proto.fleet.v1.HostSelector;
import dev.abfleet.proto.fleet.v1.Policy;
import dev.abfleet.proto.fleet.v1.VmShape;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * One run of a schedule: resolve the kernels, submit the experiment (priority "nightly"), wait
 * for it, and append the result to the schedule's history.
 */
public final class NightlyRun {
  static final String BASELINE_ARM = "baseline";
  static final String CANDIDATE_ARM = "candidate";
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmm'Z'").withZone(ZoneOffset.UTC);

  private final FleetConfig config;
  private final Kernels kernels;
  private final Path home;
  private final ExperimentRunner runner;
  private final PrintStream err;

  /**
   * @param configDir directory of fleet.yaml: relative kernel paths start there
   * @param home $ABFLEET_HOME: history/ and nightly/artifacts/ live under it
   */
  public NightlyRun(FleetConfig config, Path configDir, Path home, ExperimentRunner runner, PrintStream err) {
    this.config = config;
    this.kernels = new Kernels(configDir, home);
    this.home = home;
    this.runner = runner;
    this.err = err;
  }

  /** The experiment id of the run due at {@code due}: the same after a restart. */
  static String experimentId(FleetConfig.Schedule s, Instant due) {
    return s.name() + "-" + ID_TIME.format(due);
  }

  /** Runs the schedule as due at {@code due} and returns the history entry it appended. */
  public HistoryEntry run(FleetConfig.Schedule s, Instant due) {
    HistoryFile history = HistoryFile.of(home, s.name());
    HistoryFile.Contents past;
    try {
      history.repairTornTail().ifPresent(msg -> err.println("abfleet: warning: " + msg));
      past = history.read();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    past.problems().forEach(p -> err.println("abfleet: warning: " + history.path() + ":" + p.line()
        + ": " + p.message() + "; line skipped"));
    String id = experimentId(s, due);
    var already = past.entries().stream().filter(e -> e.experiment().equals(id)).findFirst();
    if (already.isPresent()) {
      err.println("abfleet: " + id + " is already in " + history.path() + "; not run again");
      return already.get();
    }
    HistoryEntry.Artifact candidate = kernels.candidate(s);
    HistoryEntry.Artifact baseline = s.aa() ? candidate : kernels.baseline(s, past.lastAccepted());
    err.println("abfleet: " + s.name() + ": experiment " + id + ": candidate " + candidate.sha256().substring(0, 12)
        + " vs baseline " + baseline.sha256().substring(0, 12)
        + (NightlyCommand.simulated(s) ? " (SIMULATION: sim hosts)" : ""));
    Experiment done = runner.run(id, spec(s, baseline, candidate));
    if (s.aa()) {
      recordNoise(s, done, due);
    }
    HistoryEntry entry = entry(s, due, done, baseline, candidate);
    try {
      history.append(entry);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + history.path(), e);
    }
    return entry;
  }

  /** An A/A run's noise, merged into its host classes' records as {@code abfleet calibrate --real} does. */
  private void recordNoise(FleetConfig.Schedule s, Experiment done, Instant due) {
    var store = dev.abfleet.cli.noise.NoiseStore.inHome(home);
    for (var r : dev.abfleet.cli.noise.NoiseMeasure.of(done, due.atZone(ZoneOffset.UTC).toLocalDate())) {
      var merged = store.merge(r);
      err.println("abfleet: " + s.name() + ": A/A noise of host class " + r.hostClass() + " recorded in "
          + store.file(r.hostClass()) + " (" + merged.falsePositives() + "/" + merged.experiments()
          + " experiments with a false positive)");
    }
  }

  ExperimentSpec spec(FleetConfig.Schedule s, HistoryEntry.Artifact baseline, HistoryEntry.Artifact candidate) {
    FleetConfig.Benchmark b = config.benchmark(s.benchmark());
    FleetConfig.Policy p = config.policy();
    HostSelector.Builder selector = HostSelector.newBuilder()
        .setArch(s.hosts().arch()).putAllLabels(s.hosts().labels());
    if (s.hosts().hypervisors().size() == 1) {
      selector.setHypervisor(s.hosts().hypervisor());
    } else {
      selector.addAllHypervisors(s.hosts().hypervisors());
    }
    return ExperimentSpec.newBuilder()
        .setName(s.name())
        .addArms(arm(BASELINE_ARM, "baseline", baseline))
        .addArms(arm(CANDIDATE_ARM, "candidate", candidate))
        .setBenchmark(b.toProto(b.metrics(), b.iterations()))
        .setSelector(selector)
        .setPolicy(Policy.newBuilder().setNoiseThreshold(p.noiseThreshold()).setAlpha(p.alpha())
            .setPairs(s.pairs()).setBootTimeoutS(p.bootTimeoutS()).addAllGatingMetrics(b.gating())
            .setWarmupBoot(p.warmupBoot()).addAllClassBy(s.hosts().classBy())
            .setFutilityEffect(p.futilityEffect()).setFutilityBeta(p.futilityBeta()))
        .setPriority("nightly")
        .build();
  }

  private Arm arm(String name, String role, HistoryEntry.Artifact a) {
    return Arm.newBuilder().setName(name).setRole(role)
        .setKernel(Artifact.newBuilder().setSha256(a.sha256()).setUri(a.path())
            .setSizeBytes(new File(a.path()).length()))
        .setShape(VmShape.newBuilder().setVcpus(config.vm().vcpus()).setMemoryMib(config.vm().memoryMib()))
        .build();
  }

  /** The history line of a finished experiment. */
  static HistoryEntry entry(FleetConfig.Schedule s, Instant due, Experiment e, HistoryEntry.Artifact baseline,
      HistoryEntry.Artifact candidate) {
    List<HistoryEntry.Metric> metrics = e.getComparisonsList().stream()
        .filter(c -> c.getArm().equals(CANDIDATE_ARM))
        .map(NightlyRun::metric)
        .toList();
    boolean completed = e.getState().equals("completed");
    boolean regressed = e.getOverall().equals("regressed");
    return new HistoryEntry(HistoryEntry.VERSION, s.name(), due.toString(), e.getExperimentId(), e.getState(),
        baseline, candidate, metrics, e.getOverall(), completed && !regressed, e.getMessage(),
        e.getSpec().getSelector().getHypervisor().equals("sim")
            || e.getSpec().getSelector().getHypervisorsList().contains("sim"));
  }

  private static HistoryEntry.Metric metric(Comparison c) {
    return new HistoryEntry.Metric(c.getMetric(), c.getUnit(), c.getBetter(), c.getGating(),
        c.getBaselineCenter(), c.getCandidateCenter(), c.getChange(), c.getCiLow(), c.getCiHigh(), c.getVerdict());
  }

  /** Exit code of a --once run: 0 accepted, 1 a gating metric regressed, 3 not completed. */
  static int exitCode(HistoryEntry e) {
    if (!e.state().equals("completed")) {
      return ExitCodes.FAILED;
    }
    return e.accepted() ? ExitCodes.OK : ExitCodes.GATE;
  }
}
