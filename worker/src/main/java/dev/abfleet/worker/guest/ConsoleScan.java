package dev.abfleet.worker.guest;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Finds the lines of a boot's console that report a kernel problem: a {@code WARN()}, a BUG, an
 * oops, a stack trace, a hung task, a lockdep or sanitizer report. Pure: the caller reads the
 * console. Each line counts once, however many patterns it matches; a finding never changes a
 * verdict, it is reported beside it.
 *
 * <p>The default patterns follow the kernel's own formats (6.1: {@code kernel/panic.c __warn},
 * {@code arch/x86/kernel/dumpstack.c}, {@code kernel/hung_task.c}, {@code kernel/locking/lockdep.c},
 * {@code mm/kasan/report.c}) and are anchored so that look-alikes on a clean boot do not match:
 * {@code WARNING:} only at the start of the message (after the timestamp), so that mitigation
 * notices such as {@code RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable} and
 * {@code ACPI Warning:} are not findings; {@code BUG:} only as a word, so that {@code DEBUG:} and
 * {@code [Firmware Bug]:} are not.
 */
public final class ConsoleScan {

  /**
   * Java regular expressions matched against each console line ({@link java.util.regex.Matcher#find()});
   * the list used when a run names none.
   */
  public static final List<String> DEFAULT_PATTERNS = List.of(
      "(?:^|\\]\\s?)WARNING:",                     // WARN(), and lockdep's "WARNING: possible ..."
      "\\bBUG:",                                   // BUG: kernel NULL pointer dereference, soft lockup, KASAN
      "kernel BUG at ",                            // BUG_ON(): "kernel BUG at mm/slub.c:123!"
      "\\bOops\\b",                                // "Oops: 0002 [#1] PREEMPT SMP NOPTI"
      "Call [Tt]race:",                            // x86 "Call Trace:", arm64 "Call trace:"
      "blocked for more than \\d+ seconds",        // hung task: "INFO: task X:1 blocked for more than 120 seconds."
      "possible circular locking dependency",      // lockdep
      "possible recursive locking",                // lockdep
      "inconsistent lock state",                   // lockdep
      "KASAN:",                                    // "BUG: KASAN: slab-out-of-bounds in ..."
      "UBSAN:");                                   // "UBSAN: shift-out-of-bounds in ..."

  /** The console lines kept per boot; the count covers all. */
  public static final int MAX_LINES = 20;

  /** Characters kept of each line. */
  public static final int MAX_LINE_CHARS = 300;

  /**
   * The kernel argument that lets the kernel print warnings on a console that {@code quiet}
   * otherwise limits to errors: {@code quiet} sets the console log level to 4, which hides
   * {@code KERN_WARNING} (level 4) messages such as {@code WARNING: CPU: 0 PID: 1 at ...} and the
   * {@code KERN_DEFAULT} stack trace after it; level 5 shows them and still hides notices and info.
   */
  public static final String LOGLEVEL_ARG = "loglevel=5";

  private final List<Pattern> patterns;

  private ConsoleScan(List<Pattern> patterns) {
    this.patterns = patterns;
  }

  /** A scan for the default patterns. */
  public static ConsoleScan defaults() {
    return of(List.of());
  }

  /**
   * A scan for {@code patterns}; empty = {@link #DEFAULT_PATTERNS}.
   *
   * @throws IllegalArgumentException naming the first pattern that is not a valid regular expression
   */
  public static ConsoleScan of(List<String> patterns) {
    List<String> sources = patterns.isEmpty() ? DEFAULT_PATTERNS : patterns;
    problem(sources).ifPresent(p -> {
      throw new IllegalArgumentException(p);
    });
    return new ConsoleScan(sources.stream().map(Pattern::compile).toList());
  }

  /** What is wrong with {@code patterns}, or empty when each compiles and none is blank. */
  public static Optional<String> problem(List<String> patterns) {
    for (String p : patterns) {
      if (p == null || p.isBlank()) {
        return Optional.of("console pattern is empty: give a regular expression such as 'WARNING:', or none"
            + " for the default list");
      }
      try {
        Pattern.compile(p);
      } catch (PatternSyntaxException e) {
        return Optional.of("console pattern '" + p + "' is not a valid regular expression ("
            + e.getDescription() + " near index " + e.getIndex() + "); escape special characters, e.g. 'Oops\\[1\\]'");
      }
    }
    return Optional.empty();
  }

  /**
   * The matching lines of {@code console} (carriage returns dropped): how many, and the first
   * {@link #MAX_LINES}, each cut to {@link #MAX_LINE_CHARS} characters.
   */
  public Findings scan(String console) {
    if (console == null || console.isEmpty()) {
      return Findings.NONE;
    }
    int count = 0;
    List<String> kept = new ArrayList<>();
    for (String raw : console.split("\n", -1)) {
      String line = raw.replace("\r", "");
      if (matches(line)) {
        count++;
        if (kept.size() < MAX_LINES) {
          kept.add(line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) : line);
        }
      }
    }
    return count == 0 ? Findings.NONE : new Findings(count, kept);
  }

  private boolean matches(String line) {
    for (Pattern p : patterns) {
      if (p.matcher(line).find()) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param count console lines that matched
   * @param lines the first {@link #MAX_LINES} of them, in console order, each cut to
   *     {@link #MAX_LINE_CHARS} characters
   */
  public record Findings(int count, List<String> lines) {
    public static final Findings NONE = new Findings(0, List.of());

    public Findings {
      lines = List.copyOf(lines);
    }
  }
}
