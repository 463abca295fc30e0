package dev.abfleet.cli;

import dev.abfleet.cli.build.BuildProgress;
import dev.abfleet.cli.build.KernelBuilds;
import dev.abfleet.cli.gitbisect.Bisection;
import dev.abfleet.cli.gitbisect.GitBisectReport;
import dev.abfleet.cli.gitbisect.GitRange;
import dev.abfleet.cli.gitbisect.ProbeClass;
import dev.abfleet.config.FleetConfig;
import dev.abfleet.config.Problem;
import dev.abfleet.proto.fleet.v1.Comparison;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.build.BuildResult;
import dev.abfleet.model.BuildSource;
import dev.abfleet.model.BuildSpec;
import dev.abfleet.worker.build.KernelBuilder;
import dev.abfleet.worker.link.ChannelSecurity;
import dev.abfleet.worker.process.ProcessRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code abfleet bisect --git}: the first bad commit of a first-parent range, building each
 * kernel it probes on demand (cached by build key). The endpoints are built and measured first
 * (good against bad: the regression to find); each probe is then one A/B of the good endpoint's
 * kernel against the probe's, classified by which end it resembles ({@link ProbeClass}).
 */
public final class GitBisectRun {

  /**
   * What the command line asks for.
   *
   * @param build the build inputs of every commit; its source is replaced by the commit
   * @param controller run the A/Bs on this controller's fleet; null = an embedded fleet here
   */
  public record Options(Path repo, String good, String bad, String metric, BuildSpec build, FleetConfig config,
      String benchmark, Integer pairs, List<Integer> looks, Double threshold, Double alpha, String controller,
      Integer localWorkers) {}

  private final Options o;
  private final PrintStream err;
  private final KernelBuilder builder = new KernelBuilder(KernelBuilds.home());
  private final Map<Integer, AbArm> kernels = new HashMap<>();
  private final GitBisectReport report;
  private GitRange range;
  /** Kernels built by this bisect (not found in the cache). */
  private int builds;

  private GitBisectRun(Options o, PrintStream err) {
    this.o = o;
    this.err = err;
    this.report = new GitBisectReport(o.metric());
  }

  /** Runs the bisect; prints its report to {@code out}; answers the exit code (0 found, 1 ambiguous). */
  public static int run(Options o, PrintStream out, PrintStream err) throws InterruptedException {
    return new GitBisectRun(o, err).run(out);
  }

  private int run(PrintStream out) throws InterruptedException {
    Path scratch;
    try {
      scratch = Files.createTempDirectory("abfleet-git-bisect");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    range = GitRange.read(new ProcessRunner(), o.repo(), o.good(), o.bad(), scratch);
    Bisection search = new Bisection(range.commits().size());
    err.println("abfleet: bisect " + o.metric() + " over " + (range.commits().size() - 1) + " commits of " + o.repo()
        + " (first parent); at most " + Bisection.maxProbes(range.commits().size()) + " probes after the endpoints");
    AbArm good = kernel(0);
    AbArm bad = kernel(range.commits().size() - 1);
    double[] endpoint = measure(good, bad, 1);
    report.endpoints(range.commits().get(0), range.commits().get(range.commits().size() - 1), endpoint);
    if (!(endpoint[1] < 0)) {
      out.print(report.render(range, search, builds, "the bad endpoint does not regress " + o.metric()
          + " against the good one; nothing to bisect"));
      return ExitCodes.GATE;
    }
    for (OptionalInt next = search.next(); next.isPresent(); next = search.next()) {
      int i = next.getAsInt();
      double[] probe = measure(good, kernel(i), 1);
      ProbeClass c = ProbeClass.of(probe[0], probe[1], endpoint[2]);
      boolean again = ProbeClass.doubtful(c, probe[2], endpoint[2]);
      if (again) {
        err.println("abfleet: bisect: " + range.commits().get(i).shortId() + " rules out no change but lies nearer the"
            + " good end (" + GitBisectReport.interval(probe) + "); measuring it again with twice the pairs");
        probe = measure(good, kernel(i), 2);
        c = ProbeClass.of(probe[0], probe[1], endpoint[2]);
      }
      report.probe(range.commits().get(i), probe, c, again);
      err.println("abfleet: bisect: " + range.commits().get(i).shortId() + " " + c.name().toLowerCase()
          + " (" + GitBisectReport.interval(probe) + ")");
      if (c == ProbeClass.AMBIGUOUS) {
        search.record(i, c);
        out.print(report.render(range, search, builds, null));
        return ExitCodes.GATE;
      }
      search.record(i, c);
    }
    out.print(report.render(range, search, builds, null));
    return ExitCodes.OK;
  }

  /** The kernel of commit {@code i}, built (or found in the cache) on first use. */
  private AbArm kernel(int i) throws InterruptedException {
    AbArm known = kernels.get(i);
    if (known != null) {
      return known;
    }
    GitRange.Commit commit = range.commits().get(i);
    BuildSpec spec = new BuildSpec(new BuildSource.Git(o.repo(), commit.id()), o.build().patches(),
        o.build().configBase(), o.build().configFragments(), o.build().configLines(), o.build().arch(),
        o.build().makeArgs());
    BuildProgress progress = new BuildProgress("build " + commit.shortId(), err);
    BuildResult result = builder.build(spec, progress);
    progress.endLine();
    if (result instanceof BuildResult.Failed f) {
      throw new Problem(KernelBuilds.failureLine("commit " + commit.shortId() + " (" + commit.subject() + ")", f));
    }
    BuildResult.Built b = (BuildResult.Built) result;
    if (!b.cached()) {
      builds++;
    }
    err.println("build " + commit.shortId() + ": " + b.manifest().describe()
        + (b.cached() ? " (cached)" : " in " + b.wall().toSeconds() + " s"));
    FleetConfig.Vm vm = o.config().vm();
    AbArm arm = new AbArm("c-" + commit.shortId(), "candidate", b.image(), "", List.of(),
        b.modulesDir() == null ? "" : b.modulesDir().toString(), "", vm.vcpus(), vm.memoryMib(), vm.pinVcpus(),
        "commit " + commit.shortId(), null, KernelBuilds.provenance(b.manifest()));
    kernels.put(i, arm);
    return arm;
  }

  /**
   * One A/B of {@code base} against {@code probe} on the metric: the probe's direction-aware
   * interval and estimate {low, high, change} (negative = worse).
   */
  private double[] measure(AbArm base, AbArm probe, int pairsFactor) throws InterruptedException {
    AbArm baseline = new AbArm("good-" + base.name().substring(2), "baseline", base.kernel(), "", List.of(),
        base.modulesDir(), "", base.vcpus(), base.memoryMib(), base.pinVcpus(), base.origin(), null, base.built());
    AbRequest request = new AbRequest(List.of(baseline, probe), o.config(), o.benchmark(), List.of(o.metric()),
        o.looks() == null ? pairs(pairsFactor) : null, o.looks() == null ? null : looks(pairsFactor), o.threshold(),
        o.alpha(), null, null, null, null,
        AbHosts.of(o.controller(), null, null, null, null, o.controller() == null ? o.localWorkers() : null));
    Experiment done = experiment(request);
    if (!done.getState().equals("completed")) {
      throw new Problem("the A/B of " + probe.origin() + " ended " + done.getState() + ": " + done.getMessage());
    }
    Comparison c = done.getComparisonsList().stream().filter(x -> x.getMetric().equals(o.metric())).findFirst()
        .orElseThrow(() -> new Problem("the A/B of " + probe.origin() + " has no comparison of " + o.metric()));
    boolean higher = c.getBetter().equals("higher");
    double[] ci = ProbeClass.directionAware(c.getCiLow(), c.getCiHigh(), higher);
    return new double[] {ci[0], ci[1], higher ? c.getChange() : -c.getChange()};
  }

  /** The design's pairs times {@code factor}; null (fleet.yaml's design) stays null unless doubled. */
  private Integer pairs(int factor) {
    if (o.pairs() != null) {
      return o.pairs() * factor;
    }
    return factor == 1 ? null : o.config().policy().pairs() * factor;
  }

  private List<Integer> looks(int factor) {
    return o.looks().stream().map(l -> l * factor).toList();
  }

  private Experiment experiment(AbRequest request) {
    if (request.hosts().remote()) {
      String target = request.hosts().controller();
      try (ExperimentClient client = new ExperimentClient(target, Reconnect.standard(target, err))) {
        String id = client.submitUploading("", request.toSpec(List.of()), err);
        return client.watch(id, new Progress(err)::onChange);
      }
    }
    int workers = o.localWorkers() == null ? 1 : o.localWorkers();
    try (LocalFleet fleet = LocalFleet.start(request.config(), WorkerSettings.defaultHome(), workers, err);
        ExperimentClient client = new ExperimentClient(fleet.target(), ChannelSecurity.DEFAULT)) {
      String id = client.submit("", ExperimentClient.prepared(request.toSpec(fleet.hostIds()),
          WorkerSettings.defaultHome()));
      return client.watch(id, new Progress(err)::onChange);
    }
  }
}
