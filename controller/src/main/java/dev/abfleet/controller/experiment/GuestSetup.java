package dev.abfleet.controller.experiment;

import java.util.List;

/**
 * How an arm's guest is set up beyond kernel, command line and size.
 *
 * @param pinVcpus each vCPU thread pinned to a host CPU of its own (a "hard-pinned" arm)
 * @param modules kernel modules the guest loads before the harness, by name; the benchmark's
 *     volume transport adds its own
 * @param modulesDir the kernel's module tree on the worker host; empty = beside the kernel
 * @param volumeOptions mount options appended to the volume transport's defaults, e.g.
 *     "cache=loose"; empty = the defaults
 */
public record GuestSetup(boolean pinVcpus, List<String> modules, String modulesDir,
    String volumeOptions) {
  public static final GuestSetup NONE = new GuestSetup(false, List.of(), "", "");

  public GuestSetup {
    modules = modules == null ? List.of() : List.copyOf(modules);
    modulesDir = modulesDir == null ? "" : modulesDir;
    volumeOptions = volumeOptions == null ? "" : volumeOptions;
  }
}
