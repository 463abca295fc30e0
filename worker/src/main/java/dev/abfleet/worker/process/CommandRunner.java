package dev.abfleet.worker.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs one external command to completion or timeout. The seam that lets probes and drivers
 * be tested without starting real processes; {@link ProcessRunner} is the real one.
 */
@FunctionalInterface
public interface CommandRunner {

  /**
   * Runs {@code argv} (no shell involved) with {@code workDir} as working directory, writing
   * its stdout and stderr to {@code workDir/<logName>.stdout} and {@code .stderr}. Never
   * throws for a failed launch: see {@link RunResult#launchError()}. If the calling thread
   * is interrupted the child is killed, the interrupt flag is restored and the result has
   * {@link RunResult#interrupted()} set.
   */
  RunResult run(List<String> argv, Path workDir, String logName, Duration timeout);

  /**
   * As above, and the process tree is also killed as soon as a file of {@code caps} grows past
   * its cap; {@link RunResult#overCap()} then says which. This default ignores the caps (test
   * doubles); {@link ProcessRunner} watches them.
   */
  default RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps) {
    return run(argv, workDir, logName, timeout);
  }

  /**
   * As above, and once {@code end}'s file holds its marker the process tree gets the marker's
   * grace to exit and is then stopped; {@link RunResult#stoppedAfterEnd()} says so. A process
   * stopped this way finished its work: it is neither timed out nor failed. Null = no marker.
   * This default ignores the marker (test doubles); {@link ProcessRunner} watches it.
   */
  default RunResult run(List<String> argv, Path workDir, String logName, Duration timeout, List<OutputCap> caps,
      EndMarker end) {
    return run(argv, workDir, logName, timeout, caps);
  }
}
