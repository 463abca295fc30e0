package dev.abfleet.worker.guest;

import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.modules.GuestModule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A boot's initramfs as layers: the guest image, then the boot's kernel modules, then opaque
 * layers others make (a user workload's files). The kernel unpacks an initramfs that is several
 * gzip-compressed newc archives one after the other into one root file system, later entries
 * over earlier ones, so a layer is appended as it is: nothing is unpacked or rewritten.
 *
 * <p>Cached as {@code CACHE/guest/initramfs/KEY.cpio.gz}, KEY = SHA-256 of every input (the
 * base's and each layer's bytes, the modules' names and bytes), written atomically.
 */
public final class InitramfsLayers {

  /** Bump when the way layers are put together changes, so old cached images are not reused. */
  private static final String LAYOUT_VERSION = "layers-1";
  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;

  private InitramfsLayers() {}

  /**
   * The initramfs {@code base ++ modules layer ++ extraLayers...}; {@code base} itself when
   * there are no modules and no extra layers.
   *
   * @param cacheDir abfleet cache root
   * @param base a gzip-compressed newc guest image ({@link GuestImage#base})
   * @param modules kernel modules /init loads, in this order; none = no modules layer
   * @param extraLayers gzip-compressed newc archives appended last, in this order
   * @throws GuestImageException an input cannot be read, a layer is not gzip-compressed, or the
   *     cache cannot be written
   */
  public static Path compose(Path cacheDir, Path base, List<GuestModule> modules, List<Path> extraLayers)
      throws GuestImageException {
    if (modules.isEmpty() && extraLayers.isEmpty()) {
      return base;
    }
    checkGzip(base, "guest image");
    for (Path layer : extraLayers) {
      checkGzip(layer, "initramfs layer");
    }
    Path target = cacheDir.resolve("guest").resolve("initramfs").resolve(key(base, modules, extraLayers) + ".cpio.gz");
    if (Files.isRegularFile(target)) {
      return target;
    }
    InitramfsBuilder.writeAtomically(target, out -> {
      Files.copy(base, out);
      if (!modules.isEmpty()) {
        InitramfsBuilder.gzip(out, cpio -> InitramfsBuilder.writeModules(cpio, modules));
      }
      for (Path layer : extraLayers) {
        Files.copy(layer, out);
      }
    });
    return target;
  }

  /** Hex SHA-256 over every input, each file by its content. */
  static String key(Path base, List<GuestModule> modules, List<Path> extraLayers) throws GuestImageException {
    List<byte[]> parts = new ArrayList<>();
    parts.add(Sha256.utf8(LAYOUT_VERSION));
    parts.add(Sha256.utf8(contentHash(base)));
    parts.add(Sha256.utf8("modules " + modules.size()));
    for (GuestModule m : modules) {
      parts.add(Sha256.utf8(m.fileName()));
      parts.add(m.bytes());
    }
    for (Path layer : extraLayers) {
      parts.add(Sha256.utf8(contentHash(layer)));
    }
    return Sha256.ofParts(parts.toArray(new byte[0][]));
  }

  private static String contentHash(Path file) throws GuestImageException {
    try {
      return Sha256.ofFile(file);
    } catch (IOException e) {
      throw new GuestImageException("cannot read " + file + ": " + e, e);
    }
  }

  /** The kernel takes only gzip (of the compressions we write) after the first archive. */
  private static void checkGzip(Path file, String what) throws GuestImageException {
    try (InputStream in = Files.newInputStream(file)) {
      if (in.read() != GZIP_MAGIC_1 || in.read() != GZIP_MAGIC_2) {
        throw new GuestImageException(what + " " + file + " is not a gzip-compressed cpio archive;"
            + " compress it with gzip (cpio -o -H newc | gzip)");
      }
    } catch (IOException e) {
      throw new GuestImageException("cannot read " + what + " " + file + ": " + e, e);
    }
  }
}
