package dev.abfleet.worker.guest;

import dev.abfleet.worker.modules.GuestModule;
import java.nio.file.Path;
import java.util.List;

/**
 * Entry point for the run executor: the initramfs every benchmark boot uses. Built once per
 * host and input change (harness source, /init, busybox, compiler target), then served from
 * the cache in milliseconds, so staging it never falls inside the measured window.
 */
public final class GuestImage {

  private GuestImage() {}

  /** The initramfs for guests of the host's own CPU; see {@link #ensure(Path, GuestToolchain)}. */
  public static Path ensure(Path cacheDir) throws GuestImageException, InterruptedException {
    return ensure(cacheDir, GuestToolchain.host());
  }

  /**
   * Returns the path of a gzip-compressed newc initramfs whose /init runs fleetbench with the
   * {@code abfleet.*} kernel parameters ({@link HarnessParams#kernelArgs()}) and powers off.
   *
   * @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet)
   * @throws GuestImageException a host tool is missing or unusable (an INFRA failure)
   */
  public static Path ensure(Path cacheDir, GuestToolchain toolchain)
      throws GuestImageException, InterruptedException {
    return ensure(cacheDir, toolchain, List.of());
  }

  /**
   * As {@link #ensure(Path, GuestToolchain)}, with kernel modules /init loads before the
   * harness, in this order; each module set has its own cached image.
   */
  public static Path ensure(Path cacheDir, GuestToolchain toolchain, List<GuestModule> modules)
      throws GuestImageException, InterruptedException {
    Path harness = new HarnessBuild(cacheDir, toolchain.compiler()).ensureBinary();
    byte[] init = Resources.read(Resources.INIT_SCRIPT);
    return new InitramfsBuilder(cacheDir).build(init, toolchain.busybox(), harness, modules);
  }
}
