package dev.abfleet.cli;

import dev.abfleet.cli.report.JsonReport;
import dev.abfleet.cli.report.MarkdownReport;
import dev.abfleet.cli.report.TextReport;
import dev.abfleet.proto.fleet.v1.Experiment;
import java.util.Locale;

/** Output formats of reports. */
enum ReportFormat {
  TEXT,
  JSON,
  MARKDOWN;

  static ReportFormat parse(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "text" -> TEXT;
      case "json" -> JSON;
      case "markdown", "md" -> MARKDOWN;
      default -> throw new Problem("--format '" + s + "': expected text, json or markdown");
    };
  }

  String render(Experiment e) {
    return switch (this) {
      case TEXT -> TextReport.render(e);
      case JSON -> JsonReport.render(e);
      case MARKDOWN -> MarkdownReport.render(e);
    };
  }
}
