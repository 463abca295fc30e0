package dev.abfleet.worker.guest;

import dev.abfleet.worker.artifact.CacheFiles;
import dev.abfleet.worker.artifact.Sha256;
import dev.abfleet.worker.modules.GuestModule;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioArchiveEntry;
import org.apache.commons.compress.archivers.cpio.CpioArchiveOutputStream;
import org.apache.commons.compress.archivers.cpio.CpioConstants;

/**
 * The one writer of initramfs archives: gzip-compressed cpio "newc" archives, every entry owned
 * by root with mtime 0, so the same inputs give the same bytes.
 *
 * <p>The base image holds /init, a static busybox with the applets /init uses,
 * /bin/fleetbench, the mount points and /dev/console (the kernel opens it for PID 1 before
 * /init can mount devtmpfs). A modules layer ({@link #writeModules}) holds the kernel modules a
 * boot needs as {@code /lib/modules/NNN-name.ko}, numbered in load order (/init loads them in
 * file name order); {@link InitramfsLayers} appends it to a base image.
 *
 * <p>The base is cached as {@code CACHE/guest/initramfs/KEY.cpio.gz}, KEY = SHA-256 of every
 * input; every cached archive is written to a temp file and moved into place atomically, so a
 * reader never sees a partial archive.
 */
public final class InitramfsBuilder {

  /** Busybox applets linked into /bin: what /init calls, plus a few for debugging by hand. */
  static final List<String> APPLETS =
      List.of("sh", "mount", "umount", "cat", "ls", "mkdir", "sleep", "sync", "poweroff",
          "reboot", "dmesg", "stty", "insmod", "lsmod", "tr", "grep", "usleep");
  /** Bump when the archive layout changes, so old cached archives are not reused. */
  private static final String LAYOUT_VERSION = "3";
  private static final int CONSOLE_MAJOR = 5;
  private static final int CONSOLE_MINOR = 1;

  private final Path cacheDir;

  /** @param cacheDir abfleet cache root ($ABFLEET_HOME or ~/.cache/abfleet) */
  public InitramfsBuilder(Path cacheDir) {
    this.cacheDir = cacheDir;
  }

  /**
   * Returns the cached base image for these inputs, building it if needed.
   *
   * @param init the /init script
   * @param busybox a statically linked busybox (Debian: /bin/busybox of busybox-static)
   * @param harness the static fleetbench binary, same CPU as busybox
   * @throws GuestImageException an input is missing, dynamically linked or of another CPU
   */
  public Path build(byte[] init, Path busybox, Path harness) throws GuestImageException {
    byte[] busyboxBytes = readInput(busybox, "busybox");
    byte[] harnessBytes = readInput(harness, "fleetbench binary");
    checkExecutables(busybox, busyboxBytes, harness, harnessBytes);
    String key = Sha256.ofParts(Sha256.utf8(LAYOUT_VERSION), init, busyboxBytes, harnessBytes);
    Path target = cacheDir.resolve("guest").resolve("initramfs").resolve(key + ".cpio.gz");
    if (!Files.isRegularFile(target)) {
      writeAtomically(target, out -> gzip(out, cpio -> write(cpio, init, busyboxBytes, harnessBytes)));
    }
    return target;
  }

  /** Writes the uncompressed newc base archive. */
  static void write(OutputStream out, byte[] init, byte[] busybox, byte[] harness)
      throws IOException {
    try (CpioArchiveOutputStream cpio =
        new CpioArchiveOutputStream(nonClosing(out), CpioConstants.FORMAT_NEW)) {
      Entries e = new Entries(cpio);
      for (String d : List.of("bin", "dev", "proc", "sys", "bench")) {
        e.dir(d, 0755);
      }
      e.dir("tmp", 01777);
      e.charDevice("dev/console", 0600, CONSOLE_MAJOR, CONSOLE_MINOR);
      e.file("init", 0755, init);
      e.file("bin/busybox", 0755, busybox);
      e.file("bin/fleetbench", 0755, harness);
      for (String applet : APPLETS) {
        e.symlink("bin/" + applet, "busybox");
      }
      cpio.finish();
    }
  }

  /** Writes the uncompressed newc modules layer: {@code modules} as {@code lib/modules/NNN-name.ko} in this order. */
  static void writeModules(OutputStream out, List<GuestModule> modules) throws IOException {
    try (CpioArchiveOutputStream cpio =
        new CpioArchiveOutputStream(nonClosing(out), CpioConstants.FORMAT_NEW)) {
      Entries e = new Entries(cpio);
      e.dir("lib", 0755);
      e.dir("lib/modules", 0755);
      for (int i = 0; i < modules.size(); i++) {
        e.file(moduleEntry(i, modules.get(i)), 0644, modules.get(i).bytes());
      }
      cpio.finish();
    }
  }

  /** Something written to a stream: a cpio archive or a whole image. */
  @FunctionalInterface
  interface Body {
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code body} to {@code out} as one gzip member; {@code out} stays open. */
  static void gzip(OutputStream out, Body body) throws IOException {
    try (GZIPOutputStream gz = new GZIPOutputStream(nonClosing(out))) {
      body.writeTo(gz);
    }
  }

  /**
   * Writes {@code body} to a temp file beside {@code target}, makes it world-readable and moves
   * it into place; a temp file is never left behind.
   */
  static void writeAtomically(Path target, Body body) throws GuestImageException {
    Path tmp = null;
    try {
      Files.createDirectories(target.getParent());
      tmp = Files.createTempFile(target.getParent(), ".initramfs-", ".tmp");
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
        body.writeTo(out);
      }
      makeWorldReadable(tmp);
      CacheFiles.moveIntoPlace(tmp, target);
    } catch (IOException e) {
      throw new GuestImageException("cannot write initramfs " + target + ": " + e, e);
    } finally {
      deleteQuietly(tmp);
    }
  }

  /** Where module {@code index} of the load order lies in the archive, e.g. {@code lib/modules/003-9p.ko}. */
  static String moduleEntry(int index, GuestModule m) {
    return String.format("lib/modules/%03d-%s", index, m.fileName());
  }

  /** Rejects inputs the guest could not execute, with the fix in the message. */
  static void checkExecutables(Path busybox, byte[] busyboxBytes, Path harness, byte[] harnessBytes)
      throws GuestImageException {
    ElfInfo bb = ElfInfo.read(busyboxBytes).orElseThrow(() -> new GuestImageException(
        busybox + " is not an ELF executable: install busybox-static (apt-get install busybox-static)"));
    if (!bb.isStatic()) {
      throw new GuestImageException(
          busybox + " is dynamically linked and cannot run in the initramfs (no /lib there):"
              + " install busybox-static (apt-get install busybox-static)");
    }
    ElfInfo fb = ElfInfo.read(harnessBytes).orElseThrow(() -> new GuestImageException(
        harness + " is not an ELF executable"));
    if (!fb.isStatic()) {
      throw new GuestImageException(harness + " is dynamically linked; build it with gcc -static");
    }
    if (bb.machine() != fb.machine()) {
      throw new GuestImageException(
          busybox + " is " + bb.machineName() + " but " + harness + " is " + fb.machineName()
              + ": both must match the guest CPU");
    }
  }

  private static byte[] readInput(Path path, String what) throws GuestImageException {
    try {
      return Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new GuestImageException(
          what + " " + path + " not found"
              + (what.equals("busybox") ? ": install busybox-static (apt-get install busybox-static)" : ""),
          e);
    } catch (IOException e) {
      throw new GuestImageException("cannot read " + what + " " + path + ": " + e, e);
    }
  }

  /** The VM process may run as another user than the worker; the archive holds no secrets. */
  private static void makeWorldReadable(Path p) throws IOException {
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: keep the default permissions.
    }
  }

  private static void deleteQuietly(Path p) {
    if (p != null) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException ignored) {
        // A leftover temp file in the cache is harmless and never used.
      }
    }
  }

  private static OutputStream nonClosing(OutputStream out) {
    return new java.io.FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }

  /**
   * Adds entries with explicit inode numbers (the kernel links equal inodes with nlink > 1),
   * owned by root with mtime 0. Shared by every archive the worker writes (see WorkloadPack).
   */
  static final class Entries {
    private final CpioArchiveOutputStream cpio;
    private long inode = 1;

    Entries(CpioArchiveOutputStream cpio) {
      this.cpio = cpio;
    }

    void dir(String name, int perm) throws IOException {
      put(entry(name, CpioConstants.C_ISDIR | perm, 0), new byte[0]);
    }

    void file(String name, int perm, byte[] data) throws IOException {
      put(entry(name, CpioConstants.C_ISREG | perm, data.length), data);
    }

    void symlink(String name, String target) throws IOException {
      byte[] data = target.getBytes(StandardCharsets.UTF_8);
      put(entry(name, CpioConstants.C_ISLNK | 0777, data.length), data);
    }

    void charDevice(String name, int perm, int major, int minor) throws IOException {
      CpioArchiveEntry e = entry(name, CpioConstants.C_ISCHR | perm, 0);
      e.setRemoteDeviceMaj(major);
      e.setRemoteDeviceMin(minor);
      put(e, new byte[0]);
    }

    private CpioArchiveEntry entry(String name, int mode, long size) {
      CpioArchiveEntry e = new CpioArchiveEntry(CpioConstants.FORMAT_NEW, name, size);
      e.setMode(mode);
      e.setInode(inode++);
      e.setNumberOfLinks((mode & CpioConstants.S_IFMT) == CpioConstants.C_ISDIR ? 2 : 1);
      e.setUID(0);
      e.setGID(0);
      e.setTime(0);
      return e;
    }

    private void put(CpioArchiveEntry e, byte[] data) throws IOException {
      cpio.putArchiveEntry(e);
      cpio.write(data);
      cpio.closeArchiveEntry();
    }
  }
}
