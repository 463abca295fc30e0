package dev.abfleet.worker.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The shipped {@code abfleet-minimal} config fragments, one resource per arch, read once. */
final class MinimalFragment {

  private static final Map<String, String> TEXTS = new ConcurrentHashMap<>();

  private MinimalFragment() {}

  /** The fragment of {@code arch} ({@code x86_64} or {@code aarch64}). */
  static String text(String arch) {
    return TEXTS.computeIfAbsent(arch, MinimalFragment::read);
  }

  private static String read(String arch) {
    String name = "abfleet-minimal-" + arch + ".config";
    try (InputStream in = MinimalFragment.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no abfleet-minimal fragment for arch '" + arch
            + "'; expected x86_64 or aarch64");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the shipped resource " + name, e);
    }
  }
}
