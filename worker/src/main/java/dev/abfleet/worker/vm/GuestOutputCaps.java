package dev.abfleet.worker.vm;

import dev.abfleet.worker.process.EndMarker;
import dev.abfleet.worker.process.OutputCap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How much a guest may write per boot. The QEMU and VZ drivers kill a VM whose console or
 * results file grows past its cap ({@link BootOutcome#overCap()}); the run procedure reads at most
 * {@link #RESULTS_BYTES} of the results and classifies an over-cap boot as a harness failure.
 * Without caps a guest printing garbage in a loop fills the host's disk and, through the
 * report, the controller's message limit.
 */
public final class GuestOutputCaps {

  /**
   * The results channel: a protocol line is ~150 bytes, so 1 MiB holds ~7,000 samples, far more
   * than any benchmark asks for, and the samples parsed from it (smaller on the wire than as
   * JSON) leave a report far below the controller's 4 MiB message limit.
   */
  public static final long RESULTS_BYTES = 1L << 20;

  /**
   * The console: a boot's kernel messages are ~100 KiB; 8 MiB leaves room for a debug kernel
   * while a flood cannot fill the host's disk. Reports only ever carry its last lines.
   */
  public static final long CONSOLE_BYTES = 8L << 20;

  /**
   * How long a guest may take to power off after the harness's last line. /init only syncs and
   * powers off, which takes well under a second; a kernel that cannot power off (x86 without
   * ACPI halts instead) is stopped after this, its results kept.
   */
  public static final Duration POWEROFF_GRACE = Duration.ofSeconds(5);

  private GuestOutputCaps() {}

  /**
   * The results channel's last lines: the harness's {@code done} line, or /init's setup error
   * (after which it only powers off). Either ends the boot's work.
   */
  public static EndMarker endOf(Path results) {
    return new EndMarker(results, List.of("{\"event\":\"done\"", "{\"event\":\"setup_error\""), POWEROFF_GRACE);
  }

  /** The caps on one boot's console and results files. */
  public static List<OutputCap> of(Path console, Path results) {
    return List.of(new OutputCap(results, RESULTS_BYTES), new OutputCap(console, CONSOLE_BYTES));
  }
}
