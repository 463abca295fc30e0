package dev.abfleet.worker.guest;

import dev.abfleet.model.WorkloadLimits;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.Sha256;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;

/**
 * The guest image of a workload boot: the base initramfs, the workload's files layer
 * ({@link WorkloadPack}) and a tiny settings layer, concatenated (the kernel unpacks
 * concatenated gzip cpio archives in order).
 *
 * <p>The settings layer carries what does not travel well on the kernel command line:
 * {@code /workload/.abfleet/run} (the shell command, as given) and
 * {@code /workload/.abfleet/timeout_s} (decimal seconds and a newline). /init runs
 * {@code fleetbench --workload /workload/.abfleet/run --workload-timeout S} when the first exists.
 */
public final class WorkloadImage {

  /** Guest path of the file holding the run command. */
  public static final String RUN_FILE = "/" + WorkloadPack.ROOT + "/" + WorkloadPack.RESERVED + "/run";
  /** The run's timeout when the benchmark gives none (proto Workload.timeout_s = 0). */
  public static final int DEFAULT_TIMEOUT_S = WorkloadLimits.DEFAULT_TIMEOUT_S;
  /** fleetbench reads at most this much of the run command. */
  public static final int MAX_RUN_BYTES = WorkloadLimits.MAX_RUN_BYTES;

  private WorkloadImage() {}

  /**
   * The settings layer for {@code run} with {@code timeoutS}, cached by content under
   * {@code CACHE/guest/workloads/run-KEY.cpio.gz}.
   *
   * @param timeoutS seconds, 0 = {@link #DEFAULT_TIMEOUT_S}
   * @throws IllegalArgumentException run is empty, has a NUL byte or is over {@link #MAX_RUN_BYTES}
   */
  public static Path runLayer(Path cacheDir, String run, int timeoutS) throws IOException {
    byte[] command = run.getBytes(StandardCharsets.UTF_8);
    if (run.isBlank() || run.indexOf('\0') >= 0 || command.length > MAX_RUN_BYTES) {
      throw new IllegalArgumentException("workload run command must be 1 to " + MAX_RUN_BYTES
          + " bytes without NUL, got " + command.length + " bytes");
    }
    byte[] timeout = ((timeoutS == 0 ? DEFAULT_TIMEOUT_S : timeoutS) + "\n").getBytes(StandardCharsets.US_ASCII);
    Path dir = Files.createDirectories(cacheDir.resolve("guest").resolve("workloads"));
    Path target = dir.resolve("run-" + Sha256.ofParts(command, timeout) + ".cpio.gz");
    if (Files.isRegularFile(target)) {
      return target;
    }
    Path tmp = Files.createTempFile(dir, ".run-", ".tmp");
    try {
      try (CpioArchiveOutputStream cpio = new CpioArchiveOutputStream(
          new GZIPOutputStream(Files.newOutputStream(tmp)), CpioConstants.FORMAT_NEW)) {
        InitramfsBuilder.Entries e = new InitramfsBuilder.Entries(cpio);
        String settings = WorkloadPack.ROOT + "/" + WorkloadPack.RESERVED;
        e.dir(WorkloadPack.ROOT, 0755);
        e.dir(settings, 0755);
        e.file(settings + "/run", 0644, command);
        e.file(settings + "/timeout_s", 0644, timeout);
        cpio.finish();
      }
      WorkloadPack.worldReadable(tmp);
      CacheFiles.moveIntoPlace(tmp, target);
      return target;
    } finally {
      WorkloadPack.deleteQuietly(tmp);
    }
  }

}
