package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * One arm on the command line: {@code NAME=KERNEL[:ARGS]}, ARGS being extra kernel
 * command-line arguments appended to the driver's defaults (they may contain '=' and spaces).
 */
public record ArmArg(String name, Path kernel, String cmdlineExtra) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  public static ArmArg parse(String option, String text) {
    int eq = text.indexOf('=');
    if (eq <= 0) {
      throw new Problem(option + " '" + text + "': expected NAME=KERNEL[:ARGS], e.g. " + option
          + " stock=/boot/vmlinuz-6.1.0-50-cloud-amd64");
    }
    String name = text.substring(0, eq);
    if (!NAME.matcher(name).matches()) {
      throw new Problem(option + " name '" + name + "' may only use letters, digits, '_', '.', '-' (at most 64)");
    }
    String rest = text.substring(eq + 1);
    int colon = rest.indexOf(':');
    String kernel = colon < 0 ? rest : rest.substring(0, colon);
    String args = colon < 0 ? "" : rest.substring(colon + 1).trim();
    if (kernel.isEmpty()) {
      throw new Problem(option + " '" + text + "': the kernel path is empty; expected NAME=KERNEL[:ARGS]");
    }
    if (args.indexOf('\n') >= 0 || args.indexOf('\0') >= 0) {
      throw new Problem(option + " '" + name + "': kernel arguments may not contain newlines");
    }
    return new ArmArg(name, Path.of(kernel), args);
  }
}
