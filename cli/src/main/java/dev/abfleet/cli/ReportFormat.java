package dev.abfleet.cli;

import dev.abfleet.config.Problem;

import dev.abfleet.cli.report.ProtoReports;
import dev.abfleet.proto.fleet.v1.Experiment;
import dev.abfleet.report.HtmlReport;
import dev.abfleet.report.JsonReport;
import dev.abfleet.report.MarkdownReport;
import dev.abfleet.report.Report;
import dev.abfleet.report.TextReport;
import java.util.List;
import java.util.Locale;

/** Output formats of reports. */
public enum ReportFormat {
  TEXT,
  JSON,
  MARKDOWN,
  /** One self-contained page with server-side SVG charts. */
  HTML;

  public static ReportFormat parse(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "text" -> TEXT;
      case "json" -> JSON;
      case "markdown", "md" -> MARKDOWN;
      case "html" -> HTML;
      default -> throw new Problem("--format '" + s + "': expected text, json, markdown or html");
    };
  }

  /** One experiment the controller ran. */
  public String render(Experiment e) {
    Report r = ProtoReports.of(e);
    return switch (this) {
      case TEXT -> TextReport.render(r);
      case JSON -> JsonReport.render(r);
      case MARKDOWN -> MarkdownReport.render(r);
      case HTML -> HtmlReport.render(r);
    };
  }

  /**
   * One experiment with the measured noise of its host classes quoted after the report; without
   * calibrations exactly {@link #render(Experiment)}.
   */
  public String render(Experiment e, List<dev.abfleet.report.NoiseCalibration> noise) {
    if (noise.isEmpty()) {
      return render(e);
    }
    Report r = ProtoReports.of(e);
    return switch (this) {
      case TEXT -> dev.abfleet.report.NoiseSection.text(r, noise);
      case JSON -> dev.abfleet.report.NoiseSection.json(r, noise);
      case MARKDOWN -> dev.abfleet.report.NoiseSection.markdown(r, noise);
      case HTML -> HtmlReport.render(r, noise);
    };
  }

  /** Several experiments ({@code abfleet analyze}): JSON wraps them in one document. */
  public String render(List<Report> reports) {
    return switch (this) {
      case TEXT -> TextReport.render(reports);
      case JSON -> JsonReport.render(reports);
      case MARKDOWN -> MarkdownReport.render(reports);
      case HTML -> HtmlReport.render(reports);
    };
  }
}
