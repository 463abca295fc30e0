package dev.abfleet.worker.sim;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SIMULATION only: the effect a sim placeholder kernel carries in its own file, so that an
 * ordered list of kernel files (a bisect, a nightly builds directory) says what each one
 * simulates without command line tokens. The sim driver reads it from the staged kernel of
 * every boot.
 *
 * <p>Format (UTF-8 text, as {@link SimArtifacts#kernel(Path, String, Map)} writes it):
 *
 * <pre>
 * abfleet SIMULATION placeholder kernel 'NAME': the sim hypervisor never boots it
 * sim.effect.METRIC=FACTOR
 * sim.effect.OTHER_METRIC=FACTOR
 * </pre>
 *
 * The first line is the marker; a file that does not start with it (a real kernel image, say)
 * simulates no effect. After it, one {@code sim.effect.<metric>=<factor>} per line (factor a
 * number &gt; 0 multiplying that metric's value, each metric once); blank lines and lines
 * starting with {@code #} are ignored; anything else is an error. Errors fail the boots of the
 * arm as harness errors with the message (see {@link SimTokens}), never simulate nothing
 * silently. A factor given here and by the arm's {@code sim.effect} token multiplies.
 *
 * @param effects factor per metric; absent = 1
 * @param errors one message per bad line, naming the line and the fix
 */
public record SimKernelEffects(Map<String, Double> effects, List<String> errors) {
  /** First line of every sim placeholder kernel. */
  public static final String MARKER = "abfleet SIMULATION placeholder kernel";
  /** No effect, no error. */
  public static final SimKernelEffects NONE = new SimKernelEffects(Map.of(), List.of());
  /** A placeholder is a few lines; more than this is not one. */
  static final int MAX_BYTES = 64 * 1024;

  public SimKernelEffects {
    effects = Map.copyOf(effects);
    errors = List.copyOf(errors);
  }

  /**
   * The effects of the kernel file at {@code kernel}. A missing file has none (the worker stages
   * every kernel before a boot; only a driver called directly sees one); an unreadable file is
   * an error.
   */
  public static SimKernelEffects read(Path kernel) {
    try (InputStream in = Files.newInputStream(kernel)) {
      byte[] head = in.readNBytes(MAX_BYTES);
      return parse(new String(head, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return NONE;
    } catch (IOException e) {
      return new SimKernelEffects(Map.of(), List.of("sim kernel " + kernel + " is not readable ("
          + e.getMessage() + ")"));
    }
  }

  /** Parses a kernel file's text. Total: no marker = no effects; bad lines are errors. */
  public static SimKernelEffects parse(String text) {
    if (!text.startsWith(MARKER)) {
      return NONE;
    }
    Map<String, Double> effects = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String where = "sim kernel file line " + (i + 1) + ": '" + line + "': ";
      int eq = line.indexOf('=');
      if (!line.startsWith(SimTokens.EFFECT) || eq <= SimTokens.EFFECT.length()) {
        errors.add(where + "expected " + SimTokens.EFFECT + "<metric>=<factor>, e.g. "
            + SimTokens.EFFECT + "seq_read=0.85");
        continue;
      }
      String metric = line.substring(SimTokens.EFFECT.length(), eq);
      double f = number(line.substring(eq + 1));
      if (!(f > 0 && Double.isFinite(f))) {
        errors.add(where + "the factor must be a number > 0, e.g. " + SimTokens.EFFECT + metric + "=0.85");
      } else if (effects.put(metric, f) != null) {
        errors.add(where + SimTokens.EFFECT + metric + " is given twice; keep one");
      }
    }
    return new SimKernelEffects(effects, errors);
  }

  /**
   * The text of a placeholder kernel named {@code name} with these effects (metrics sorted, so
   * the same effects always give the same file and sha256).
   *
   * @throws IllegalArgumentException for a name with a line break, a blank metric name, one with whitespace or '=', or a
   *     factor that is not a finite number &gt; 0
   */
  public static String format(String name, Map<String, Double> effects) {
    if (name.contains("\n") || name.contains("\r")) {
      throw new IllegalArgumentException("sim kernel name '" + name + "' has a line break; use one line");
    }
    StringBuilder text = new StringBuilder(MARKER + " '" + name + "': the sim hypervisor never boots it\n");
    for (var e : new TreeMap<>(effects).entrySet()) {
      String metric = e.getKey();
      double f = e.getValue() == null ? Double.NaN : e.getValue();
      if (metric.isBlank() || !metric.equals(metric.strip()) || metric.matches(".*[\\s=].*")) {
        throw new IllegalArgumentException("sim kernel '" + name + "': metric name '" + metric
            + "' is blank or has whitespace or '='; use a metric of the sim model, e.g. seq_read");
      }
      if (!(f > 0 && Double.isFinite(f))) {
        throw new IllegalArgumentException("sim kernel '" + name + "': factor " + e.getValue() + " for "
            + metric + "; expected a number > 0, e.g. 0.85 for -15%");
      }
      text.append(SimTokens.EFFECT).append(metric).append('=').append(f).append('\n');
    }
    return text.toString();
  }

  /** The factor for {@code metric}; 1 when the kernel sets none. */
  public double effect(String metric) {
    return effects.getOrDefault(metric, 1.0);
  }

  private static double number(String s) {
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
