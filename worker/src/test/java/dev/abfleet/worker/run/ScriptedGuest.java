package dev.abfleet.worker.run;

import dev.abfleet.worker.vm.BootOutcome;
import dev.abfleet.worker.vm.BootRequest;
import dev.abfleet.worker.vm.VmDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/** A VM driver that boots nothing: the "guest" wrote the results the test scripted, and exited 0. */
final class ScriptedGuest implements VmDriver {
  private final Supplier<String> results;
  /** The last boot asked for; null before the first. */
  BootRequest booted;

  ScriptedGuest(Supplier<String> results) {
    this.results = results;
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public List<String> accelerators() {
    return List.of("tcg");
  }

  @Override
  public BootOutcome boot(BootRequest request) {
    booted = request;
    Path resultsLog = request.workDir().resolve("results.log");
    try {
      Files.writeString(resultsLog, results.get(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BootOutcome("tcg", 0, false, Duration.ofSeconds(1), request.workDir().resolve("console.log"),
        resultsLog, "", null, null, List.of());
  }
}
