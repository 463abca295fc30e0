package dev.abfleet.worker.modules;

import java.util.Objects;

/**
 * One uncompressed kernel module for the initramfs.
 *
 * @param fileName its file name, e.g. {@code 9pnet_virtio.ko}
 * @param bytes the ELF object insmod loads
 */
public record GuestModule(String fileName, byte[] bytes) {
  public GuestModule {
    Objects.requireNonNull(fileName, "fileName");
    Objects.requireNonNull(bytes, "bytes");
  }
}
