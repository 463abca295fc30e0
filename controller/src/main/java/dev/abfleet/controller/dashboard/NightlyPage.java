package dev.abfleet.controller.dashboard;

/**
 * Extension point for the dashboard's Nightly page (nightly series with change points marked).
 * The dashboard shows a Nightly link and serves {@code GET /nightly} only when it is given one;
 * until nightly schedules live in the controller it is given none, and no page is made up.
 */
public interface NightlyPage {
  /** The content of the page's {@code <main>} (HTML), already escaped where it quotes input. */
  java.util.concurrent.CompletionStage<String> mainHtml();
}
