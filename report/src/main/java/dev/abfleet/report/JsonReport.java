package dev.abfleet.report;

import dev.abfleet.model.ArmBuild;
import dev.abfleet.stats.verdict.BootSample;

import dev.abfleet.stats.verdict.Row;

import dev.abfleet.stats.verdict.Assessment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.abfleet.stats.BootFailureComparison;
import dev.abfleet.stats.Comparison;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable report. Field names are a public interface (documented in docs/reports.md):
 * change only with a new {@code format_version}. Numbers that cannot be computed are null.
 *
 * <p>Every experiment is one object with the same verdict fields whoever ran it ({@code design},
 * {@code policy}, {@code pairs_done}, {@code overall}, {@code host_classes},
 * {@code overall_reasons}, {@code gate}, {@code class_heterogeneity}, {@code comparisons}, {@code boot_failures}); an experiment the
 * fleet ran adds its run facts ({@code state}, {@code seed}, {@code builds}, {@code boots}, ...).
 */
public final class JsonReport {
  public static final int FORMAT_VERSION = 2;
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  /** {@code {"rule":"adaptive","last_s":312,"arms":[{"arm":"base","seconds":312,"why":"..."}]}}. */
  private static ObjectNode bootTimeout(BootTimeout t) {
    ObjectNode n = JSON.createObjectNode().put("rule", t.rule()).put("last_s", t.lastS());
    ArrayNode arms = n.putArray("arms");
    t.arms().forEach(a -> arms.addObject().put("arm", a.arm()).put("seconds", a.seconds()).put("why", a.why()));
    return n;
  }

  /** One experiment: {@code {"format_version":2,"experiment":...}} ({@code abfleet ab}). */
  public static String render(Report r) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format_version", FORMAT_VERSION);
    root.setAll(experiment(r));
    return write(root);
  }

  /** Several: {@code {"format_version":2,"experiments":[...]}} ({@code abfleet analyze}). */
  public static String render(List<Report> reports) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format_version", FORMAT_VERSION);
    ArrayNode all = root.putArray("experiments");
    reports.forEach(r -> all.add(experiment(r)));
    return write(root);
  }

  /** The experiment's object, without {@code format_version}. */
  public static ObjectNode experiment(Report r) {
    Design d = r.design();
    Assessment a = r.assessment();
    Run run = r.run();
    ObjectNode n = JSON.createObjectNode();
    n.put("experiment", d.experiment());
    if (r.simulation()) {
      n.put("simulation", true);
    }
    if (run != null) {
      n.put("state", run.state());
    }
    n.put("baseline", d.baseline());
    ArrayNode cands = n.putArray("candidates");
    d.candidates().forEach(cands::add);
    if (!d.ceiling().isEmpty()) {
      n.put("ceiling", d.ceiling());
    }
    if (!r.builds().isEmpty()) {
      ObjectNode builds = n.putObject("builds");
      r.builds().forEach((arm, b) -> builds.set(arm, build(b)));
    }
    if (run != null) {
      n.put("seed", run.seed());
    }
    n.put("design", a.paired() ? "paired" : "unpaired");
    ObjectNode policy = n.putObject("policy");
    number(policy, "noise_threshold", d.policy().noiseThreshold());
    number(policy, "alpha", d.policy().alpha());
    if (run != null) {
      policy.put("pairs", run.pairsWanted());
    }
    ArrayNode looks = policy.putArray("looks");
    d.policy().looks().forEach(looks::add);
    if (d.policy().futility()) {
      number(policy, "futility_effect", d.policy().futilityEffect());
      number(policy, "futility_beta", d.policy().futilityBeta());
    }
    n.put("pairs_done", r.pairs());
    if (run != null) {
      n.put("stopped_early", run.stoppedEarly());
      n.put("retried_blocks", run.retriedBlocks());
      n.put("interfered_reruns", run.interferedReruns());
      n.put("rejected_stale", run.rejectedStale());
      if (run.bootTimeout() != null) {
        n.set("boot_timeout", bootTimeout(run.bootTimeout()));
      }
    }
    if (a.overall().isEmpty()) {
      n.putNull("overall");
    } else {
      n.put("overall", a.overall());
    }
    strings(n.putArray("overall_reasons"), a.overallReasons());
    if (a.gate().isEmpty()) {
      n.putNull("gate");
    } else {
      n.put("gate", a.gate());
    }
    ArrayNode classes = n.putArray("host_classes");
    a.classPairs().forEach((cls, pairs) -> classes.addObject().put("host_class", cls)
        .put("pairs", pairs));
    n.put("class_heterogeneity", a.classHeterogeneity());
    if (run != null && !run.message().isEmpty()) {
      n.put("message", run.message());
    }
    ArrayNode rows = n.putArray("comparisons");
    a.rows().forEach(row -> rows.add(comparison(row)));
    ArrayNode failures = n.putArray("boot_failures");
    for (Map.Entry<String, BootFailureComparison> e : a.bootFailures().entrySet()) {
      failures.add(bootFailures(e.getKey(), e.getValue()));
    }
    List<TelemetryChanges.Row> changes = TelemetryChanges.of(r);
    if (!changes.isEmpty()) {
      ArrayNode t = n.putArray("telemetry_changes");
      changes.forEach(c -> t.add(telemetryChange(c)));
    }
    List<CounterRatios.Row> ratios = CounterRatios.of(r);
    if (!ratios.isEmpty()) {
      ArrayNode t = n.putArray("ratios");
      ratios.forEach(c -> t.add(ratio(c)));
    }
    if (run != null) {
      ObjectNode console = n.putObject("console_findings");
      ConsoleSummary.of(r).forEach(s -> console.putObject(s.arm())
          .put("boots", s.bootsWithFindings()).put("lines", s.lines()));
      List<HostSummary> hosts = HostSummary.of(r);
      if (!hosts.isEmpty()) {
        ObjectNode pressure = n.putObject("host_pressure_by_arm");
        hosts.forEach(h -> {
          ObjectNode arm = pressure.putObject(h.arm()).put("boots", h.boots())
              .put("cpu_some_avg10_median", h.medianCpuSome()).put("cpu_some_avg10_max", h.maxCpuSome())
              .put("interfered", h.interfered()).put("interfered_rerun", h.rerun())
              .put("interfered_kept", h.kept());
          if (!Double.isNaN(h.medianOtherCpuPct())) {
            arm.put("other_cpu_pct_median", h.medianOtherCpuPct());
          }
        });
      }
      List<HostFactChange> factChanges = HostFactChange.of(r);
      if (!factChanges.isEmpty()) {
        ArrayNode factRows = n.putArray("host_fact_changes");
        factChanges.forEach(c -> factRows.addObject().put("host", c.host()).put("fact", c.fact())
            .put("from", c.from()).put("to", c.to()).put("first_run", c.firstRun()));
      }
      ArrayNode boots = n.putArray("boots");
      run.boots().forEach(b -> boots.add(boot(b)));
    }
    return n;
  }

  private static ObjectNode build(ArmBuild b) {
    ObjectNode n = JSON.createObjectNode();
    n.put("key", b.key());
    n.put("source", b.source());
    n.put("source_digest", b.sourceDigest());
    strings(n.putArray("patches"), b.patches());
    strings(n.putArray("patch_digests"), b.patchDigests());
    n.put("config", b.config());
    n.put("arch", b.arch());
    n.put("toolchain", b.toolchain());
    n.put("release", b.release());
    return n;
  }

  private static ObjectNode comparison(Row row) {
    Comparison c = row.comparison();
    ObjectNode n = JSON.createObjectNode();
    n.put("arm", row.arm());
    n.put("metric", c.metric());
    n.put("unit", c.unit());
    n.put("better", c.better().wire());
    n.put("gating", c.gating());
    n.put("n_baseline", c.nBaseline());
    n.put("n_candidate", c.nCandidate());
    n.put("n_pairs", c.nPairs());
    number(n, "baseline_center", c.baselineCenter());
    number(n, "candidate_center", c.candidateCenter());
    number(n, "change", c.change());
    number(n, "ci_low", c.ciLow());
    number(n, "ci_high", c.ciHigh());
    number(n, "p_value", c.pValue());
    number(n, "p_adjusted", c.pAdjusted());
    n.put("adjustment", c.adjustment().wire());
    n.put("host_class", c.hostClass());
    n.put("verdict", c.verdict().wire());
    if (row.ofCeiling() > 0) {
      n.put("of_ceiling", row.ofCeiling());
    }
    strings(n.putArray("reasons"), c.reasons());
    strings(n.putArray("warnings"), c.warnings());
    return n;
  }

  private static ObjectNode bootFailures(String arm, BootFailureComparison b) {
    ObjectNode n = JSON.createObjectNode();
    n.put("arm", arm);
    n.put("baseline_failed", b.baselineFailed());
    n.put("baseline_boots", b.baselineBoots());
    n.put("candidate_failed", b.candidateFailed());
    n.put("candidate_boots", b.candidateBoots());
    number(n, "baseline_rate", b.baselineBoots() == 0 ? Double.NaN
        : b.baselineFailed() / (double) b.baselineBoots());
    number(n, "candidate_rate", b.candidateBoots() == 0 ? Double.NaN
        : b.candidateFailed() / (double) b.candidateBoots());
    number(n, "p_value", b.pValue());
    n.put("test", "fisher_one_sided");
    n.put("verdict", b.verdict().wire());
    return n;
  }

  /** {"ROW": [cpu0, cpu1, ...], ...} under key; absent when there are no rows. */
  private static void perCpu(ObjectNode parent, String key, Map<String, List<Long>> rows) {
    if (rows.isEmpty()) {
      return;
    }
    ObjectNode out = parent.putObject(key);
    rows.forEach((row, counts) -> counts.forEach(out.putArray(row)::add));
  }

  private static ObjectNode telemetryChange(TelemetryChanges.Row c) {
    ObjectNode n = JSON.createObjectNode();
    n.put("arm", c.arm());
    n.put("metric", c.metric());
    n.put("counter", c.row());
    n.put("work_unit", c.workUnit());
    n.put("pairs", c.pairs());
    number(n, "baseline_rate", c.baselineRate());
    number(n, "candidate_rate", c.candidateRate());
    number(n, "change", c.change());
    number(n, "ci_low", c.low());
    number(n, "ci_high", c.high());
    return n;
  }

  private static ObjectNode ratio(CounterRatios.Row c) {
    ObjectNode n = JSON.createObjectNode();
    n.put("arm", c.arm());
    n.put("metric", c.metric());
    n.put("name", c.name());
    n.put("num", c.num());
    n.put("den", c.den());
    n.put("pairs", c.pairs());
    number(n, "baseline", c.baseline());
    number(n, "candidate", c.candidate());
    number(n, "change", c.change());
    number(n, "ci_low", c.low());
    number(n, "ci_high", c.high());
    return n;
  }

  private static ObjectNode boot(BootRecord b) {
    ObjectNode n = JSON.createObjectNode();
    RunFacts f = b.run() != null ? b.run() : new RunFacts("", "", 0, 0, 0, 0, 0, "", "");
    n.put("run_id", b.id());
    n.put("arm", b.arm());
    ObjectNode host = n.putObject("host").put("id", b.host());
    n.put("pair", b.pair() == null ? 0 : b.pair());
    n.put("order", f.orderInPair());
    n.put("lease_epoch", f.leaseEpoch());
    n.put("status", b.status());
    if (b.warmupBoot()) {
      n.put("warmup_boot", true); // policy warmup_boot: listed, never in a pair
    }
    if (b.rerun()) {
      n.put("rerun", true); // its pair ran again for interference: listed, never in a pair
    }
    n.put("hypervisor", f.hypervisor());
    n.put("accelerator", b.accelerator());
    n.put("host_class", b.hostClass() == null ? "" : b.hostClass());
    n.put("kernel_release", f.kernelRelease());
    if (!f.guestArch().isEmpty()) {
      n.put("arch", f.guestArch());
    }
    if (!f.guestImageSha256().isEmpty()) {
      n.put("guest_image_sha256", f.guestImageSha256());
    }
    n.put("boot_ms", f.bootMs());
    n.put("run_ms", f.runMs());
    n.put("stage_ms", f.stageMs());
    // Wall times (Unix epoch ms, the worker's clock): absent for boots recorded outside the fleet.
    if (f.startedAtMs() > 0) {
      n.put("started_at_ms", f.startedAtMs());
    }
    if (f.endedAtMs() > 0) {
      n.put("ended_at_ms", f.endedAtMs());
    }
    if (!f.message().isEmpty()) {
      n.put("message", f.message());
    }
    if (!f.consoleTail().isEmpty()) {
      n.put("console_tail", f.consoleTail());
    }
    if (f.consoleFindings() > 0) {
      ObjectNode console = n.putObject("console");
      console.put("findings", f.consoleFindings());
      strings(console.putArray("lines"), f.consoleLines());
    }
    if (!f.volumeTransport().isEmpty()) {
      ObjectNode v = n.putObject("volume").put("transport", f.volumeTransport()).put("options", f.volumeOptions());
      if (f.volumeDaemon() != null) {
        v.put("daemon", f.volumeDaemon().daemon()).put("daemon_options", f.volumeDaemon().options())
            .put("daemon_cpu_ms", f.volumeDaemon().cpuMs()).put("daemon_threads", f.volumeDaemon().threads());
      }
    }
    if (f.host() != null) {
      host(n, host, f.host());
    }
    if (!f.vcpuHostCpus().isEmpty()) {
      ArrayNode cpus = n.putArray("vcpu_host_cpus");
      f.vcpuHostCpus().forEach(cpus::add);
    }
    if (!f.counters().isEmpty()) {
      ObjectNode telemetry = n.putObject("telemetry");
      for (MetricCounters c : f.counters()) {
        ObjectNode m = telemetry.putObject(c.metric());
        m.put("work", c.work());
        m.put("work_unit", c.workUnit());
        ObjectNode rows = m.putObject("interrupts");
        c.interrupts().forEach(rows::put);
        m.put("context_switches", c.contextSwitches());
        m.put("interrupts_total", c.interruptsTotal());
        perCpu(m, "interrupts_per_cpu", c.interruptsPerCpu());
        perCpu(m, "softirqs_per_cpu", c.softirqsPerCpu());
        if (!c.wakeupsPerCpu().isEmpty()) {
          c.wakeupsPerCpu().forEach(m.putArray("wakeups_per_cpu")::add);
        }
        if (!c.threadRates().isEmpty()) {
          c.threadRates().forEach(m.putArray("thread_rates")::add);
        }
      }
    }
    ObjectNode values = n.putObject("values");
    ObjectNode warmup = n.putObject("warmup_values");
    for (BootSample s : b.samples()) {
      ObjectNode parent = s.warmup() ? warmup : values;
      ArrayNode list = parent.has(s.metric()) ? (ArrayNode) parent.get(s.metric())
          : parent.putArray(s.metric());
      list.add(s.value());
    }
    return n;
  }

  /**
   * The boot's {@code host.pressure} and {@code host.facts} (beside {@code host.id}), and its
   * {@code interfered} and {@code quiet_wait_ms}; absent for boots the worker did not sample.
   */
  private static void host(ObjectNode n, ObjectNode host, BootHost h) {
    BootHost.Pressure p = h.pressure();
    ObjectNode pressure = host.putObject("pressure");
    if (p.hasPsi()) {
      pressure.put("cpu_some_avg10", p.cpuSomeAvg10()).put("cpu_some_total_us", p.cpuSomeTotalUs())
          .put("io_some_avg10", p.ioSomeAvg10()).put("io_some_total_us", p.ioSomeTotalUs())
          .put("memory_some_avg10", p.memorySomeAvg10()).put("memory_some_total_us", p.memorySomeTotalUs());
    }
    if (p.load1m() >= 0) {
      pressure.put("load_1m", p.load1m());
    }
    if (p.runnableTasks() > 0) {
      pressure.put("runnable_tasks", p.runnableTasks());
    }
    if (p.windowMs() > 0) {
      pressure.put("host_busy_ms", p.hostBusyMs()).put("window_ms", p.windowMs());
    }
    if (p.otherCpuMs() >= 0) {
      pressure.put("worker_cpu_ms", p.workerCpuMs()).put("other_cpu_ms", p.otherCpuMs());
    }
    if (p.hostCpus() > 0) {
      pressure.put("host_cpus", p.hostCpus());
    }
    BootHost.Facts f = h.facts();
    host.putObject("facts").put("hypervisor_version", f.hypervisorVersion()).put("host_kernel", f.hostKernel())
        .put("cpu_model", f.cpuModel()).put("microcode", f.microcode()).put("smt", f.smt())
        .put("cpufreq_governor", f.cpufreqGovernor()).put("boost", f.boost()).put("thp", f.thp())
        .put("memory_mib", f.memoryMib()).put("worker_cpus", f.workerCpus());
    n.put("interfered", h.interfered());
    if (h.quietWaitMs() > 0) {
      n.put("quiet_wait_ms", h.quietWaitMs());
    }
  }

  private static void number(ObjectNode n, String field, double value) {
    if (Double.isFinite(value)) {
      n.put(field, value);
    } else {
      n.putNull(field);
    }
  }

  private static void strings(ArrayNode a, List<String> values) {
    values.forEach(a::add);
  }

  private static String write(ObjectNode root) {
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
