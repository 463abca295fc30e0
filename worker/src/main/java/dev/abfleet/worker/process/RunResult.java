package dev.abfleet.worker.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How one external command ended.
 *
 * @param exitCode    process exit status; -1 when it was killed (timeout, interrupt) or never started
 * @param timedOut    the timeout passed and the process tree was killed
 * @param interrupted the calling thread was interrupted and the process tree was killed
 * @param wall        wall time from start to exit
 * @param stdout      file holding the whole standard output
 * @param stderr      file holding the whole standard error
 * @param stdoutTail  last lines of stdout, escape codes stripped
 * @param stderrTail  last lines of stderr, escape codes stripped
 * @param launchError non-null when the process could not be started (missing binary, no permission)
 * @param overCap     non-null when a watched file ({@link OutputCap}) ended past its cap: which file
 *                    and how big; the process was killed if it was still running
 * @param stoppedAfterEnd true when the process wrote its {@link EndMarker} and, still running after
 *                    the marker's grace, was stopped: it finished its work ({@code exitCode} is -1)
 */
public record RunResult(
    int exitCode,
    boolean timedOut,
    boolean interrupted,
    Duration wall,
    Path stdout,
    Path stderr,
    String stdoutTail,
    String stderrTail,
    String launchError,
    String overCap,
    boolean stoppedAfterEnd) {

  /** A result of a process that was not stopped after an end marker. */
  public RunResult(int exitCode, boolean timedOut, boolean interrupted, Duration wall, Path stdout, Path stderr,
      String stdoutTail, String stderrTail, String launchError, String overCap) {
    this(exitCode, timedOut, interrupted, wall, stdout, stderr, stdoutTail, stderrTail, launchError, overCap, false);
  }

  /** A result with no output cap involved. */
  public RunResult(int exitCode, boolean timedOut, boolean interrupted, Duration wall, Path stdout, Path stderr,
      String stdoutTail, String stderrTail, String launchError) {
    this(exitCode, timedOut, interrupted, wall, stdout, stderr, stdoutTail, stderrTail, launchError, null, false);
  }

  /** True when the process ran to completion by itself with status 0. */
  public boolean succeeded() {
    return launchError == null && !timedOut && !interrupted && exitCode == 0;
  }

  /** The stdout tail followed by the stderr tail, for error messages; blank parts are left out. */
  public String outputTail() {
    return Stream.of(stdoutTail, stderrTail)
        .filter(t -> t != null && !t.isBlank())
        .collect(Collectors.joining("\n"));
  }
}
