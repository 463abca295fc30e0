package dev.abfleet.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The CPU architectures abfleet boots and builds, by the names the wire, fleet.yaml, spec files
 * and kernel inspection use ({@code x86_64}, {@code aarch64}). The one place other spellings
 * (Java's {@code os.arch} {@code amd64}, Debian's and Apple's {@code arm64}, {@code x64}) become
 * those names.
 */
public enum Arch {
  X86_64("x86_64", "amd64", "x64"),
  AARCH64("aarch64", "arm64");

  /** Every architecture's name, in declaration order: {@code [x86_64, aarch64]}. */
  public static final List<String> NAMES = Arrays.stream(values()).map(Arch::wire).toList();

  private final String wire;
  private final List<String> aliases;

  Arch(String wire, String... aliases) {
    this.wire = wire;
    this.aliases = List.of(aliases);
  }

  /** The name the wire and the files use. */
  public String wire() {
    return wire;
  }

  /** The architecture {@code name} means, in any known spelling, case-insensitively. */
  public static Optional<Arch> of(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(a -> a.wire.equals(n) || a.aliases.contains(n)).findFirst();
  }

  /**
   * {@code name} as the wire name ({@code amd64} is {@code x86_64}); a name abfleet does not
   * know comes back lower-cased, so callers can say which architecture they cannot serve.
   */
  public static String normalize(String name) {
    return of(name).map(Arch::wire).orElse(name == null ? "" : name.strip().toLowerCase(Locale.ROOT));
  }

  /** This JVM's host architecture ({@code os.arch}), normalized. */
  public static String host() {
    return normalize(System.getProperty("os.arch"));
  }
}
