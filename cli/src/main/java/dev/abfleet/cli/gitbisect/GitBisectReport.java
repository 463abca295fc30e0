package dev.abfleet.cli.gitbisect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text report of a git bisect: the endpoints' regression, one line per probe (commit,
 * subject, the probe's change against the good endpoint with its interval, its class), and the
 * first bad commit with its subject, or the open range when a probe was ambiguous.
 */
public final class GitBisectReport {
  private final String metric;
  private final List<String> lines = new ArrayList<>();
  private int probes;

  public GitBisectReport(String metric) {
    this.metric = metric;
  }

  /** The endpoints' A/B: {low, high, change} of the bad commit against the good one (negative = worse). */
  public void endpoints(GitRange.Commit good, GitRange.Commit bad, double[] measured) {
    lines.add(String.format(Locale.ROOT, "  %-12s  %-8s  %-24s  %s", good.shortId(), "good", "(endpoint)",
        subject(good)));
    lines.add(String.format(Locale.ROOT, "  %-12s  %-8s  %-24s  %s", bad.shortId(), "bad", interval(measured),
        subject(bad)));
  }

  /** @param remeasured the probe was measured again (the line shows the second measurement) */
  public void probe(GitRange.Commit c, double[] measured, ProbeClass cls, boolean remeasured) {
    probes++;
    lines.add(String.format(Locale.ROOT, "  %-12s  %-8s  %-24s  %s%s", c.shortId(),
        cls.name().toLowerCase(Locale.ROOT), interval(measured), subject(c), remeasured ? " (measured twice)" : ""));
  }

  /** "-54.1% [-58.0%, -49.7%]" (direction-aware: negative = worse). */
  public static String interval(double[] m) {
    return String.format(Locale.ROOT, "%+.1f%% [%+.1f%%, %+.1f%%]", 100 * m[2], 100 * m[0], 100 * m[1]);
  }

  /**
   * @param builds kernels built for this bisect (not found in the cache)
   * @param stopped why the search ended before it began; null otherwise
   */
  public String render(GitRange range, Bisection search, int builds, String stopped) {
    StringBuilder s = new StringBuilder();
    int commits = range.commits().size() - 1;
    s.append("bisect of ").append(metric).append(" over ").append(commits).append(commits == 1 ? " commit" : " commits")
        .append(" of ").append(range.repo()).append(" (first parent); change against the good endpoint, negative ="
            + " worse\n");
    lines.forEach(l -> s.append(l).append('\n'));
    s.append(probes).append(probes == 1 ? " probe" : " probes").append(" after the endpoints (at most ")
        .append(Bisection.maxProbes(range.commits().size())).append("); ").append(builds)
        .append(builds == 1 ? " kernel" : " kernels").append(" built, the others from the build cache\n");
    if (stopped != null) {
      return s.append("no result: ").append(stopped).append('\n').toString();
    }
    if (search.next().isPresent()) {
      GitRange.Commit g = range.commits().get(search.good());
      GitRange.Commit b = range.commits().get(search.bad());
      return s.append("ambiguous: the first bad commit is after ").append(g.shortId()).append(" and at or before ")
          .append(b.shortId()).append(" (").append(search.bad() - search.good()).append(" commits); measure the"
              + " ambiguous probe with more pairs (--looks)\n").toString();
    }
    GitRange.Commit culprit = range.commits().get(search.bad());
    return s.append("first bad commit: ").append(culprit.id()).append(' ').append(culprit.subject()).append('\n')
        .toString();
  }

  private static String subject(GitRange.Commit c) {
    return c.subject().length() > 72 ? c.subject().substring(0, 71) + "…" : c.subject();
  }
}
