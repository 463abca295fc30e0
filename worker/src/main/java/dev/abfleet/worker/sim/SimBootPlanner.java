package dev.abfleet.worker.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.abfleet.worker.sim.SimBootPlan.TimedLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Plans one simulated boot from the model: boot time, panic or not, then the samples the
 * fleetbench harness would print, in its exact line format (start event, one line per
 * iteration, error events, done event). Pure: the same inputs give the same plan.
 */
final class SimBootPlanner {
  static final String BANNER = "SIMULATION: abfleet sim hypervisor, no VM was booted; "
      + "values come from a performance model (scale tests and capacity planning only)";
  private static final ObjectMapper JSON = new ObjectMapper();

  private SimBootPlanner() {}

  /**
   * @param clockMs the host's simulated time before this boot (drives the slow drift)
   * @param bootKey unique per boot attempt (run id and lease epoch); seeds this boot's draws
   */
  static SimBootPlan plan(SimModel model, SimHost host, long clockMs, String bootKey, SimTokens tokens,
      SimHarnessArgs args, String kernelRelease, String arch) {
    SplittableRandom r = new SplittableRandom(SimSeeds.mix(model.seed(), "boot", host.hostId(), bootKey));
    SimBootTiming timing = model.boot();
    double bootS = timing.medianS() * Math.exp(timing.sigma() * r.nextGaussian());
    if (r.nextDouble() < timing.slowRate()) {
      bootS *= timing.slowFactor();
    }
    long bootMs = Math.max(1, Math.round(bootS * 1000));
    List<TimedLine> console = new ArrayList<>();
    console.add(new TimedLine(0, BANNER));
    console.add(new TimedLine(0, "Linux version " + kernelRelease + " (simulated) on " + host.hostId()));
    double failRate = tokens.failRate().orElse(model.failRate());
    boolean panics = tokens.errors().isEmpty() && r.nextDouble() < failRate;
    if (panics) {
      console.add(new TimedLine(bootMs, "Kernel panic - not syncing: SIMULATION: injected boot failure (fail rate "
          + failRate + ")"));
      return new SimBootPlan(List.of(), console, bootMs, true);
    }
    List<TimedLine> results = new ArrayList<>();
    results.add(new TimedLine(bootMs, json(start(kernelRelease, arch, bootMs))));
    long t = bootMs;
    if (!tokens.errors().isEmpty()) {
      for (String e : tokens.errors()) {
        results.add(new TimedLine(t, json(error("sim", "SIMULATION: " + e))));
      }
    } else {
      t = samples(model, host, clockMs, tokens, args, r, t, results);
    }
    results.add(new TimedLine(t, json(event("done", "elapsed_ms", t - bootMs))));
    console.add(new TimedLine(t, "fleetbench: done"));
    long exitMs = t + Math.round(timing.shutdownS() * 1000);
    console.add(new TimedLine(exitMs, "reboot: Power down"));
    return new SimBootPlan(results, console, exitMs, false);
  }

  /** Appends the harness's sample lines; returns the simulated time after the last one. */
  private static long samples(SimModel model, SimHost host, long clockMs, SimTokens tokens, SimHarnessArgs args,
      SplittableRandom r, long t, List<TimedLine> out) {
    SimNoise noise = model.noise();
    double boot = (r.nextDouble() < noise.outlierRate() ? noise.outlierFactor() : 1) * host.drift(noise, clockMs);
    for (String unknown : tokens.effectMetrics()) {
      if (model.metric(unknown).isEmpty()) {
        out.add(new TimedLine(t, json(error("sim", "SIMULATION: sim.effect." + unknown
            + ": the sim model has no metric '" + unknown + "'; expected one of " + model.metricNames()))));
      }
    }
    List<String> wanted = args.metrics().isEmpty() ? model.metricNames() : args.metrics();
    for (String name : wanted) {
      var metric = model.metric(name);
      if (metric.isEmpty()) {
        out.add(new TimedLine(t, json(error(name, "SIMULATION: the sim model has no metric '" + name
            + "'; expected one of " + model.metricNames()))));
        continue;
      }
      SimMetric m = metric.get();
      double mode = r.nextDouble() < noise.bimodalRate() ? noise.bimodalFactor() : 1;
      double centre = m.base() * host.offsets().get(name) * tokens.effect(name, host.hostId()) * boot * mode
          * Math.exp(m.bootSigma() * r.nextGaussian());
      int total = args.warmup() + args.iterations();
      for (int it = 0; it < total; it++) {
        t += args.iterationMs();
        double value = centre * Math.exp(m.iterationSigma() * r.nextGaussian());
        out.add(new TimedLine(t, json(sample(m, value, it, it < args.warmup()))));
      }
    }
    return t;
  }

  private static Map<String, Object> start(String kernelRelease, String arch, long uptimeMs) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("event", "start");
    m.put("harness", "fleetbench");
    m.put("version", "1");
    m.put("kernel", kernelRelease);
    m.put("arch", arch);
    m.put("uptime_ms", uptimeMs);
    return m;
  }

  private static Map<String, Object> sample(SimMetric m, double value, int iteration, boolean warmup) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("metric", m.name());
    s.put("value", Math.round(value * 1000) / 1000.0);
    s.put("unit", m.unit());
    s.put("better", m.better());
    s.put("iteration", iteration);
    s.put("warmup", warmup);
    return s;
  }

  private static Map<String, Object> error(String metric, String message) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("event", "error");
    e.put("metric", metric);
    e.put("message", message);
    return e;
  }

  private static Map<String, Object> event(String name, String key, long value) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("event", name);
    e.put(key, value);
    return e;
  }

  private static String json(Map<String, Object> fields) {
    try {
      return JSON.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("maps of strings and numbers always serialise", e);
    }
  }
}
