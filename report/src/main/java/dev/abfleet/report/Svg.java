package dev.abfleet.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.IntFunction;

/**
 * One server-side SVG chart: a plot area with linear x and y scales, axes with ticks and labels,
 * and the marks {@link HtmlReport} draws (points, horizontal lines, bands). Accessible by
 * construction: {@code role="img"}, a {@code <title>} and a {@code <desc>} that
 * {@code aria-labelledby} names. Every text it writes is escaped.
 */
final class Svg {
  static final int WIDTH = 640;
  static final int HEIGHT = 260;
  private static final int LEFT = 72;
  private static final int RIGHT = 16;
  private static final int TOP = 12;
  private static final int BOTTOM = 44;

  /** Okabe-Ito colours (distinguishable with colour-blindness), one per arm. */
  private static final String[] COLOURS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
      "#56B4E9"};
  /** Marker shapes, one per arm, so arms differ in print and without colour as well. */
  private static final String[] SHAPES = {"circle", "square", "triangle", "diamond", "cross"};

  private final double xMin;
  private final double xMax;
  private final double yMin;
  private final double yMax;
  private final StringBuilder body = new StringBuilder();

  /** A chart over these ranges; an empty range is widened so that scales stay finite. */
  Svg(double xMin, double xMax, double yMin, double yMax) {
    this.xMin = xMin;
    this.xMax = xMax > xMin ? xMax : xMin + 1;
    double pad = yMax > yMin ? 0.06 * (yMax - yMin) : Math.max(Math.abs(yMin) * 0.05, 1);
    this.yMin = yMin - pad;
    this.yMax = yMax + pad;
  }

  static String colour(int series) {
    return COLOURS[series % COLOURS.length];
  }

  static String shape(int series) {
    return SHAPES[series % SHAPES.length];
  }

  double x(double v) {
    return LEFT + (v - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT);
  }

  double y(double v) {
    return HEIGHT - BOTTOM - (v - yMin) / (yMax - yMin) * (HEIGHT - TOP - BOTTOM);
  }

  /** X ticks at whole numbers (pair indexes), at most about 16 of them. */
  void xAxis(String label) {
    xAxis(label, String::valueOf, 16);
  }

  /**
   * X ticks at whole numbers, labelled by {@code tickLabel}, every so many that at most
   * {@code most} of them show (labels wider than a number need fewer).
   */
  void xAxis(String label, IntFunction<String> tickLabel, int most) {
    int first = (int) Math.ceil(xMin);
    int last = (int) Math.floor(xMax);
    int step = Math.max(1, (last - first + most) / most);
    body.append("<g class=\"axis\" aria-hidden=\"true\">");
    line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, "axis-line");
    for (int t = first; t <= last; t += step) {
      double px = x(t);
      line(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 4, "axis-line");
      text(px, HEIGHT - BOTTOM + 16, "middle", tickLabel.apply(t));
    }
    text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 6, "middle", label);
    body.append("</g>");
  }

  /**
   * Y ticks at round values with grid lines; {@code format} writes a tick's label, and no two
   * ticks share one (see {@link #ticks(double, double, DoubleFunction)}).
   */
  void yAxis(String label, DoubleFunction<String> format) {
    body.append("<g class=\"axis\" aria-hidden=\"true\">");
    line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, "axis-line");
    for (double t : ticks(yMin, yMax, format)) {
      double py = y(t);
      line(LEFT, py, WIDTH - RIGHT, py, "grid");
      text(LEFT - 6, py + 4, "end", format.apply(t));
    }
    body.append(String.format(Locale.ROOT,
        "<text class=\"axis-label\" transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>",
        (TOP + HEIGHT - BOTTOM) / 2.0, HtmlText.escape(label)));
    body.append("</g>");
  }

  /** Round tick values (steps of 1, 2 or 5 times a power of ten) inside [lo, hi]. */
  static List<Double> ticks(double lo, double hi) {
    double raw = (hi - lo) / 5;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    return ticks(lo, hi, magnitude * (raw / magnitude >= 5 ? 5 : raw / magnitude >= 2 ? 2 : 1));
  }

  /**
   * {@link #ticks(double, double)}, with the step widened (to the next 1, 2 or 5 times a power of
   * ten) until no two ticks read the same once formatted: 31.20k and 31.25k both print "31.2k"
   * at three significant digits, so a 50 step becomes 100. Ends with a single tick at worst.
   */
  static List<Double> ticks(double lo, double hi, DoubleFunction<String> format) {
    List<Double> out = ticks(lo, hi);
    while (out.size() > 1 && out.stream().map(format::apply).distinct().count() < out.size()) {
      out = ticks(lo, hi, nextStep(out.get(1) - out.get(0)));
    }
    return out;
  }

  /** The next round step after {@code step}: 1 -> 2 -> 5 -> 10 times its power of ten. */
  static double nextStep(double step) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
    long mantissa = Math.round(step / magnitude);
    return magnitude * (mantissa < 2 ? 2 : mantissa < 5 ? 5 : 10);
  }

  private static List<Double> ticks(double lo, double hi, double step) {
    List<Double> out = new ArrayList<>();
    // k * step, not a running sum: no rounding drift over the ticks.
    for (long k = (long) Math.ceil(lo / step); k * step <= hi + step * 1e-9; k++) {
      out.add(k == 0 ? 0 : k * step);
    }
    return out;
  }

  /** A horizontal band from {@code lo} to {@code hi}, clipped to the plot. */
  void band(double lo, double hi, String cssClass, String title) {
    double top = y(Math.min(yMax, Math.max(lo, hi)));
    double bottom = y(Math.max(yMin, Math.min(lo, hi)));
    body.append(String.format(Locale.ROOT,
        "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\"><title>%s</title></rect>",
        cssClass, LEFT, top, WIDTH - LEFT - RIGHT, Math.max(0, bottom - top), HtmlText.escape(title)));
  }

  /** A horizontal line across the plot at {@code v}. */
  void hline(double v, String cssClass, String title) {
    double py = y(v);
    body.append(String.format(Locale.ROOT,
        "<line class=\"%s\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"><title>%s</title></line>",
        cssClass, LEFT, py, WIDTH - RIGHT, py, HtmlText.escape(title)));
  }

  /** A horizontal stroke at {@code yv} from x {@code x1} to {@code x2}. */
  void segment(double x1, double x2, double yv, String cssClass, String title) {
    body.append(String.format(Locale.ROOT,
        "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>%s</title></line>",
        cssClass, x(x1), y(yv), x(x2), y(yv), HtmlText.escape(title)));
  }

  /** A vertical stroke at x {@code xv} from {@code lo} to {@code hi} (an interval), with data attributes. */
  void whisker(double xv, double lo, double hi, String cssClass, String data, String title) {
    double px = x(xv);
    body.append(String.format(Locale.ROOT,
        "<line class=\"%s\" %s x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>%s</title></line>",
        cssClass, data, px, y(lo), px, y(hi), HtmlText.escape(title)));
  }

  /** A vertical line across the plot at {@code v}, with its own data attributes (escaped). */
  void vline(double v, String cssClass, String data, String title) {
    double px = x(v);
    body.append(String.format(Locale.ROOT,
        "<line class=\"%s\" %s x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"><title>%s</title></line>",
        cssClass, data, px, TOP, px, HEIGHT - BOTTOM, HtmlText.escape(title)));
  }

  /**
   * One point in the series' colour and shape; {@code data} is the point's data attributes
   * (already escaped), {@code title} what hovering or a screen reader tells about it.
   */
  void point(double xv, double yv, int series, String data, String title) {
    double px = x(xv);
    double py = y(yv);
    String attrs = "class=\"point\" fill=\"" + colour(series) + "\" stroke=\"" + colour(series)
        + "\" " + data;
    String t = "<title>" + HtmlText.escape(title) + "</title>";
    body.append(switch (shape(series)) {
      case "square" -> String.format(Locale.ROOT,
          "<rect %s x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\">%s</rect>", attrs, px - 4, py - 4, t);
      case "triangle" -> String.format(Locale.ROOT,
          "<path %s d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">%s</path>", attrs, px, py - 5, px + 5, py + 4,
          px - 5, py + 4, t);
      case "diamond" -> String.format(Locale.ROOT,
          "<path %s d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">%s</path>", attrs, px, py - 5, px + 5,
          py, px, py + 5, px - 5, py, t);
      case "cross" -> String.format(Locale.ROOT,
          "<path %s stroke-width=\"2\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\">%s</path>", attrs,
          px - 4, py - 4, px + 4, py + 4, px - 4, py + 4, px + 4, py - 4, t);
      default -> String.format(Locale.ROOT,
          "<circle %s cx=\"%.1f\" cy=\"%.1f\" r=\"4\">%s</circle>", attrs, px, py, t);
    });
  }

  /** The finished chart; {@code id} makes its title and description ids unique in the page. */
  String render(String id, String title, String desc, String data) {
    return String.format(Locale.ROOT,
        "<svg class=\"chart\" %s role=\"img\" aria-labelledby=\"%s-t %s-d\" viewBox=\"0 0 %d %d\""
            + " width=\"%d\" height=\"%d\">"
            + "<title id=\"%s-t\">%s</title><desc id=\"%s-d\">%s</desc>%s</svg>\n",
        data, id, id, WIDTH, HEIGHT, WIDTH, HEIGHT, id, HtmlText.escape(title), id,
        HtmlText.escape(desc), body);
  }

  private void line(double x1, double y1, double x2, double y2, String cssClass) {
    body.append(String.format(Locale.ROOT,
        "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cssClass, x1, y1, x2, y2));
  }

  private void text(double px, double py, String anchor, String s) {
    body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
        px, py, anchor, HtmlText.escape(s)));
  }
}
