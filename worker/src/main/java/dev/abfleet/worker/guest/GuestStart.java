package dev.abfleet.worker.guest;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The harness's {@code start} event.
 *
 * @param harness harness name, e.g. "fleetbench"
 * @param version harness protocol version, e.g. "1"
 * @param kernelRelease {@code uname -r} of the guest
 * @param arch {@code uname -m} of the guest, e.g. "x86_64"
 * @param uptimeMs guest milliseconds since boot when the harness started; empty if unknown
 */
public record GuestStart(
    String harness, String version, String kernelRelease, String arch, OptionalLong uptimeMs) {

  /** Time the guest took from kernel start to the harness start, if the harness knew it. */
  public Optional<Duration> bootTime() {
    return uptimeMs.isPresent() ? Optional.of(Duration.ofMillis(uptimeMs.getAsLong())) : Optional.empty();
  }
}
