package dev.abfleet.cli.e2e;

import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.DebianKernels;
import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Path;

/** The real Debian kernel the end-to-end tests boot (downloaded once into the abfleet cache). */
final class Kernels {
  static final String PACKAGE = "linux-image-6.1.0-50-cloud-amd64";

  private Kernels() {}

  static synchronized Path cloud() throws Exception {
    return new DebianKernels(new ProcessRunner()).fetch(PACKAGE, WorkerSettings.defaultHome());
  }
}
