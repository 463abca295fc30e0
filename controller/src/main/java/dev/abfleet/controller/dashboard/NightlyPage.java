package dev.abfleet.controller.dashboard;

/**
 * The dashboard's Nightly page (nightly series with change points marked): the dashboard shows a
 * Nightly link and serves {@code GET /nightly} only when it is given one, which a controller
 * with schedules does ({@link NightlySeriesPage}).
 */
public interface NightlyPage {
  /** The content of the page's {@code <main>} (HTML), already escaped where it quotes input. */
  java.util.concurrent.CompletionStage<String> mainHtml();

  /**
   * {@code GET /api/nightly/series?schedule=S&metric=M[&series=center|change]}: one metric's
   * series over a schedule's runs with its change points, as JSON (the fields of
   * {@code abfleet history --format json}); empty when the schedule is unknown and has no runs.
   */
  java.util.concurrent.CompletionStage<java.util.Optional<String>> seriesJson(String schedule, String metric,
      String series);
}
