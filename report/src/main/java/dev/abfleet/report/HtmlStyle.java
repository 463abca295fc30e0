package dev.abfleet.report;

/** The inlined style sheet of {@link HtmlReport}, with a print style: nothing is fetched. */
public final class HtmlStyle {
  private HtmlStyle() {}

  public static final String CSS = """
      body { font: 14px/1.45 system-ui, sans-serif; color: #111; margin: 1.5em auto; max-width: 60em;
        padding: 0 1em; }
      h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; } h3 { font-size: 1em; }
      table { border-collapse: collapse; margin: 0.8em 0; }
      caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
      th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }
      th[scope=row], thead th { text-align: left; }
      .verdict.improved { color: #006b3c; font-weight: 600; }
      .verdict.regressed { color: #b00020; font-weight: 600; }
      .verdict.inconclusive { color: #8a5a00; }
      .verdict.interim { color: #555; font-style: italic; }
      .banner { border: 2px solid #b00020; padding: 0.5em; background: #fff3f3; }
      figure { margin: 0.6em 0; }
      svg.chart { max-width: 100%; height: auto; font-size: 11px; background: #fff; }
      svg .axis-line { stroke: #333; stroke-width: 1; }
      svg .grid { stroke: #ddd; stroke-width: 1; }
      svg .axis-label { font-weight: 600; }
      svg .zero { stroke: #666; stroke-width: 1; }
      svg .threshold { stroke: #555; stroke-width: 1.2; stroke-dasharray: 5 4; }
      svg .estimate { stroke: #111; stroke-width: 2; }
      svg .interval { fill: #888; fill-opacity: 0.22; }
      svg .point { fill-opacity: 0.85; }
      svg .change-point { stroke: #b00020; stroke-width: 2; stroke-dasharray: 6 3; }
      svg .segment { stroke: #b00020; stroke-width: 1.5; stroke-opacity: 0.7; }
      svg .run-interval { stroke: #D55E00; stroke-width: 1.5; stroke-opacity: 0.6; }
      .legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.5em; }
      .chart-legend { font-size: 0.9em; margin: 0.2em 0 0; }
      svg.swatch { vertical-align: middle; }
      figcaption { font-weight: 600; font-size: 0.95em; }
      @media print {
        body { font-size: 10pt; max-width: none; margin: 0; }
        * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        section.metric, figure, table { break-inside: avoid; }
        svg.chart { width: 16cm; }
      }
      """;
}
