package dev.abfleet.report;

/**
 * Text safe inside HTML and SVG, as element content and as quoted attribute values: arm,
 * metric and host names come from user input, so a name like {@code <script>} renders as text.
 */
public final class HtmlText {
  private HtmlText() {}

  public static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(ch);
      }
    }
    return out.toString();
  }

  /** {@code name="value"} with the value escaped. */
  static String attr(String name, String value) {
    return name + "=\"" + escape(value) + "\"";
  }
}
