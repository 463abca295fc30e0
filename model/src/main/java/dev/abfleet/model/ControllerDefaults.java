package dev.abfleet.model;

/** Defaults of the controller that fleet.yaml and the controller's own settings share. */
public final class ControllerDefaults {
  private ControllerDefaults() {}

  /** Events between snapshots of a persistent entity; 0 in fleet.yaml turns snapshots off. */
  public static final int SNAPSHOT_EVERY = 100;

  /** HTTP port of /metrics in fleet.yaml ({@code controller.metrics_port}). */
  public static final int METRICS_PORT = 9464;
}
