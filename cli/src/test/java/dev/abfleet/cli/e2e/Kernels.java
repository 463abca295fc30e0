package dev.abfleet.cli.e2e;

import dev.abfleet.worker.WorkerSettings;
import dev.abfleet.worker.artifact.DebianKernels;
import dev.abfleet.worker.process.ProcessRunner;
import java.nio.file.Path;

/** The real Debian kernel the end-to-end tests boot (downloaded once into the abfleet cache). */
final class Kernels {
  static final String PACKAGE = "linux-image-6.1.0-50-cloud-amd64";
  static final String GENERIC_PACKAGE = "linux-image-6.1.0-50-amd64";
  /** Debian's arm64 cloud kernel (an uncompressed Image); needs dpkg's arm64 architecture (bin/setup adds it). */
  static final String ARM64_PACKAGE = "linux-image-6.1.0-50-cloud-arm64:arm64";

  private Kernels() {}

  static synchronized Path cloud() throws Exception {
    return new DebianKernels(new ProcessRunner()).fetch(PACKAGE, WorkerSettings.defaultHome());
  }

  /** The generic kernel (9p and virtio-fs as modules), its module tree beside it. */
  static synchronized Path generic() throws Exception {
    return new DebianKernels(new ProcessRunner()).fetch(GENERIC_PACKAGE, WorkerSettings.defaultHome());
  }

  /** The arm64 cloud kernel. */
  static synchronized Path arm64Cloud() throws Exception {
    return new DebianKernels(new ProcessRunner()).fetch(ARM64_PACKAGE, WorkerSettings.defaultHome());
  }
}
