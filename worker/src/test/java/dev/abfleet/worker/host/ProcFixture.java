package dev.abfleet.worker.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes files under a fixture root the way Linux lays out /proc and /sys. */
final class ProcFixture {
  private final Path root;

  ProcFixture(Path root) {
    this.root = root;
  }

  ProcFixture write(String relative, String text) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** /proc/pressure/{resource} as the kernel prints it. */
  ProcFixture psi(String resource, double someAvg10, long someTotal) {
    return write("proc/pressure/" + resource, String.format(java.util.Locale.ROOT,
        "some avg10=%.2f avg60=0.00 avg300=0.00 total=%d%nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0%n",
        someAvg10, someTotal));
  }
}
