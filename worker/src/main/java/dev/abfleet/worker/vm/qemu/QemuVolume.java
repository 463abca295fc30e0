package dev.abfleet.worker.vm.qemu;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.process.ProcUsage;
import dev.abfleet.worker.vm.VolumeDaemon;
import dev.abfleet.worker.vm.VolumeShare;
import dev.abfleet.worker.vm.VolumeTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The host volume of one QEMU boot and what runs beside the VM for it. Lifecycle: {@link
 * #prepare} before the argv is built (for virtio-fs: a socket directory of its own, since a unix
 * socket path is limited to 107 bytes), {@link #start} just before QEMU (virtio-fs: virtiofsd,
 * returning once its socket exists), {@link #close} after QEMU exited (daemon stopped,
 * directory removed; {@link #stop} does it earlier and says what the daemon used). 9p needs
 * nothing beside the VM: QEMU serves it.
 */
final class QemuVolume implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(QemuVolume.class);

  private final QemuLaunch.Volume launch;
  private final Path socketDir;
  private Virtiofsd daemon;
  private VirtiofsDaemon which;

  private QemuVolume(QemuLaunch.Volume launch, Path socketDir) {
    this.launch = launch;
    this.socketDir = socketDir;
  }

  /** @throws IOException the socket directory cannot be made */
  static QemuVolume prepare(VolumeShare share) throws IOException {
    if (share.transport() != VolumeTransport.VIRTIOFS) {
      return new QemuVolume(new QemuLaunch.Volume(share, null), null);
    }
    Path dir = Files.createTempDirectory("abfleet-vfs-");
    return new QemuVolume(new QemuLaunch.Volume(share, dir.resolve("vfs.sock")), dir);
  }

  /** What QemuArgs needs. */
  QemuLaunch.Volume launch() {
    return launch;
  }

  /**
   * Starts what serves the volume, if anything.
   *
   * @param virtiofsd the daemon the probe found (virtio-fs only)
   * @param logDir receives the daemon's stdout and stderr
   * @throws IOException the daemon did not come up (the message says why)
   * @throws IllegalArgumentException the share asks for a cache mode the daemons do not have
   */
  void start(VirtiofsDaemon virtiofsd, Path logDir) throws IOException, InterruptedException {
    if (launch.virtiofsSocket() != null) {
      VolumeShare share = launch.share();
      daemon = Virtiofsd.start(virtiofsd.argv(launch.virtiofsSocket(), share.hostDir(), share.cache()),
          launch.virtiofsSocket(), logDir, Virtiofsd.READY_TIMEOUT);
      which = virtiofsd;
    }
  }

  /**
   * Stops the daemon, if one runs, and says what it used; null when nothing served the volume
   * beside the VM.
   */
  VolumeDaemon stop() {
    if (daemon == null) {
      return null;
    }
    daemon.close();
    ProcUsage u = daemon.usage();
    String cache = launch.share().cache().isEmpty() ? VirtiofsDaemon.DEFAULT_CACHE : launch.share().cache();
    return new VolumeDaemon(which.label(), "cache=" + cache, u.cpuMs(), u.threads());
  }

  @Override
  public void close() {
    if (daemon != null) {
      daemon.close();
    }
    if (socketDir != null) {
      try {
        CacheFiles.deleteTree(socketDir);
      } catch (IOException e) {
        log.debug("cannot delete {}: {}", socketDir, e.toString());
      }
    }
  }
}
