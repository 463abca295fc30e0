package dev.abfleet.worker.sim;

import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The {@code sim} hypervisor: a SIMULATED boot that sleeps instead of running a VM and writes
 * the results channel in the exact fleetbench format, so everything after the boot (parser,
 * classifier, reports, verdicts) is the real pipeline. Labelled hypervisor "sim", accelerator
 * "sim": the controller never compares it with real accelerators.
 *
 * <p>Time: the boot's plan is in simulated time; the driver sleeps {@code simulated *
 * model.timeScale()} of real time, interruptibly. A plan longer than the request's timeout is
 * cut at the timeout and reported as timed out. {@link BootOutcome#wall()} is simulated time.
 * Draws are seeded from the model seed, the host id and the boot's work directory name (run id
 * and lease epoch), so a rerun of the same fleet reproduces its values.
 *
 * <p>Effects: the arm's {@code sim.} command line tokens ({@link SimTokens}) and the effects the
 * staged kernel file carries ({@link SimKernelEffects}) apply together; factors multiply.
 */
public final class SimDriver implements VmDriver {
  public static final String NAME = "sim";
  public static final String VERSION = "sim-1";

  private final SimModel model;
  private final SimHost host;
  private final Consumer<SimBootRecord> recorder;
  private final AtomicLong clockMs = new AtomicLong();

  /**
   * @param recorder told about every boot that ran to its end or timeout (not interrupted ones)
   */
  public SimDriver(SimModel model, String hostId, Consumer<SimBootRecord> recorder) {
    this.model = model;
    this.host = SimHost.of(model, hostId);
    this.recorder = recorder;
  }

  public SimDriver(SimModel model, String hostId) {
    this(model, hostId, r -> { });
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> accelerators() {
    return List.of(NAME);
  }

  @Override
  public String version() {
    return VERSION;
  }

  public SimModel model() {
    return model;
  }

  @Override
  public BootOutcome boot(BootRequest request) throws InterruptedException {
    Path console = request.workDir().resolve("console.log");
    Path results = request.workDir().resolve("results.log");
    SimBootPlan plan = SimBootPlanner.plan(model, host, clockMs.get(), request.workDir().getFileName().toString(),
        SimTokens.parse(request.cmdlineExtra()).with(SimKernelEffects.read(request.kernel())), SimHarnessArgs.parse(request.guestParams()),
        kernelRelease(request.kernel()), request.arch());
    long timeoutMs = request.timeout().toMillis();
    boolean timedOut = plan.exitMs() > timeoutMs;
    long endMs = timedOut ? timeoutMs : plan.exitMs();
    long start = System.nanoTime();
    TimeUnit.NANOSECONDS.sleep(Math.round(endMs * 1_000_000.0 * model.timeScale()));
    long end = System.nanoTime();
    clockMs.addAndGet(endMs);
    String consoleText = SimBootPlan.textUntil(plan.console(), endMs)
        + (timedOut ? "SIMULATION: VM killed at its timeout of " + timeoutMs + " ms\n" : "");
    try {
      Files.writeString(console, consoleText, StandardCharsets.UTF_8);
      Files.writeString(results, SimBootPlan.textUntil(plan.results(), endMs), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return BootOutcome.notStarted(console, results, "SIMULATION: cannot write " + request.workDir() + ": " + e);
    }
    recorder.accept(new SimBootRecord(host.hostId(), request.runId(), start, end, endMs, timedOut, plan.panicked()));
    return new BootOutcome(NAME, timedOut ? -1 : 0, timedOut, Duration.ofMillis(endMs), console, results,
        consoleText.strip(), null, null);
  }

  /** "sim-" and the start of the cache file name, which is the kernel's sha256. */
  private static String kernelRelease(Path kernel) {
    String name = kernel.getFileName().toString();
    return "sim-" + name.substring(0, Math.min(12, name.length()));
  }
}
