package dev.abfleet.worker.vm;

import dev.abfleet.worker.process.CommandRunner;
import dev.abfleet.worker.process.RunResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Former home of the process runner, kept so that callers outside the worker module compile
 * while they move to {@link dev.abfleet.worker.process.ProcessRunner}.
 *
 * @deprecated use {@link dev.abfleet.worker.process.ProcessRunner}
 */
@Deprecated(forRemoval = true)
public final class ProcessRunner implements CommandRunner {

  private final CommandRunner delegate = new dev.abfleet.worker.process.ProcessRunner();

  @Override
  public RunResult run(List<String> argv, Path workDir, String logName, Duration timeout) {
    return delegate.run(argv, workDir, logName, timeout);
  }
}
