package dev.abfleet.worker.vm;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A host directory shared into one boot's guest ({@code volume: host}).
 *
 * @param transport how it is shared
 * @param hostDir the directory on this host, fresh and empty for the boot
 * @param tag the virtio mount tag the guest mounts ({@link VolumeTransport#TAG})
 * @param cache virtio-fs only: the daemon's cache mode ("auto", "always", "none"); empty = the
 *     daemon's default (auto)
 */
public record VolumeShare(VolumeTransport transport, Path hostDir, String tag, String cache) {
  public VolumeShare {
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(hostDir, "hostDir");
    Objects.requireNonNull(tag, "tag");
    cache = cache == null ? "" : cache;
  }

  /** A share with the daemon's default cache mode. */
  public VolumeShare(VolumeTransport transport, Path hostDir, String tag) {
    this(transport, hostDir, tag, "");
  }
}
