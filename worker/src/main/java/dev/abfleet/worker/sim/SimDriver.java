package dev.abfleet.worker.sim;

import dev.abfleet.worker.run.BootWait;
import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The {@code sim} hypervisor: a SIMULATED boot that waits instead of running a VM and writes
 * the results channel in the exact fleetbench format, so everything after the boot (parser,
 * classifier, reports, verdicts) is the real pipeline. Labelled hypervisor "sim", accelerator
 * "sim": the controller never compares it with real accelerators.
 *
 * <p>Time: the boot's plan is in simulated time; it lasts {@code simulated * model.timeScale()}
 * of real time. By default the driver sleeps that long, interruptibly; a driver made by
 * {@link #waitedOnTimer()} returns at once and leaves the wait to its caller, as a
 * {@link BootWait} (sim workers: {@link dev.abfleet.worker.run.TimedBlockExecutor}, so that a
 * busy simulated host holds no thread). A plan longer than the request's timeout is
 * cut at the timeout and reported as timed out. {@link BootOutcome#wall()} is simulated time.
 * Draws are seeded from the model seed, the host id and the boot's work directory name (run id
 * and lease epoch), so a rerun of the same fleet reproduces its values.
 *
 * <p>Effects: the arm's {@code sim.} command line tokens ({@link SimTokens}) and the effects the
 * staged kernel file carries ({@link SimKernelEffects}) apply together; factors multiply.
 */
public final class SimDriver implements VmDriver, BootWait {
  public static final String NAME = "sim";
  public static final String VERSION = "sim-1";

  private final SimModel model;
  private final SimHost host;
  private final Consumer<SimBootRecord> recorder;
  private final AtomicLong clockMs = new AtomicLong();
  /** False: boot() returns at once and the boots it planned wait in {@link #waiting}. */
  private final boolean sleeps;
  /** Boots returned but not yet waited out, by run id (timer mode only). */
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

  private record Waiting(long startNanos, long waitNanos, long simulatedMs, boolean timedOut, boolean panicked) {}

  /**
   * @param recorder told about every boot that ran to its end or timeout (not interrupted or
   *     cancelled ones)
   */
  public SimDriver(SimModel model, String hostId, Consumer<SimBootRecord> recorder) {
    this(model, SimHost.of(model, hostId), recorder, true);
  }

  private SimDriver(SimModel model, SimHost host, Consumer<SimBootRecord> recorder, boolean sleeps) {
    this.model = model;
    this.host = host;
    this.recorder = recorder;
    this.sleeps = sleeps;
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

  /**
   * A driver for the same host, model and recorder whose boots do not sleep: boot() plans the
   * boot and writes its files at once, {@link #nanos} says how long its report must wait, and
   * {@link #ended} records it when the wait is over. Make it before the first boot (the
   * simulated clock starts anew).
   */
  public SimDriver waitedOnTimer() {
    return new SimDriver(model, host, recorder, false);
  }

  /** Real time the boot of {@code runId} still lasts after boot() returned; 0 when sleeping or unknown. */
  @Override
  public long nanos(String runId) {
    Waiting w = waiting.get(runId);
    return w == null ? 0 : w.waitNanos();
  }

  @Override
  public void ended(String runId, boolean reported) {
    Waiting w = waiting.remove(runId);
    if (w != null && reported) {
      recorder.accept(new SimBootRecord(host.hostId(), runId, w.startNanos(), System.nanoTime(), w.simulatedMs(),
          w.timedOut(), w.panicked()));
    }
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
    long waitNanos = Math.round(endMs * 1_000_000.0 * model.timeScale());
    long start = System.nanoTime();
    if (sleeps) {
      TimeUnit.NANOSECONDS.sleep(waitNanos);
    }
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
    if (sleeps) {
      recorder.accept(new SimBootRecord(host.hostId(), request.runId(), start, end, endMs, timedOut, plan.panicked()));
    } else {
      waiting.put(request.runId(), new Waiting(start, waitNanos, endMs, timedOut, plan.panicked()));
    }
    return new BootOutcome(NAME, timedOut ? -1 : 0, timedOut, Duration.ofMillis(endMs), console, results,
        consoleText.strip(), null, null);
  }

  /** "sim-" and the start of the cache file name, which is the kernel's sha256. */
  private static String kernelRelease(Path kernel) {
    String name = kernel.getFileName().toString();
    return "sim-" + name.substring(0, Math.min(12, name.length()));
  }
}
