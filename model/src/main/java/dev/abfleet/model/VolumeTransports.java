package dev.abfleet.model;

import java.util.List;

/**
 * A benchmark's host volume: the transports that carry it into the guest and the virtio-fs
 * daemon's cache modes, by the names fleet.yaml, spec files and the wire use.
 */
public final class VolumeTransports {
  private VolumeTransports() {}

  public static final String VIRTIOFS = "virtiofs";
  public static final String NINE_P = "9p";

  /** The first transport the host offers, in its order of preference. */
  public static final String AUTO = "auto";

  /** The transports, in the order a host prefers them when it offers both. */
  public static final List<String> NAMES = List.of(VIRTIOFS, NINE_P);

  /** What a file may say: {@link #AUTO} or a transport. */
  public static final List<String> CHOICES = List.of(AUTO, VIRTIOFS, NINE_P);

  /** The virtio-fs daemon's cache modes; the first is the default. */
  public static final List<String> CACHE_MODES = List.of("auto", "always", "none");
}
