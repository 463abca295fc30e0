package dev.abfleet.worker.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The shipped {@code abfleet-minimal} config fragments, one resource per arch. */
final class MinimalFragment {

  private MinimalFragment() {}

  /** The fragment of {@code arch} ({@code x86_64} or {@code aarch64}). */
  static String text(String arch) {
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
