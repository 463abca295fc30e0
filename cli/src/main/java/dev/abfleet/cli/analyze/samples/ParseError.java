package dev.abfleet.cli.analyze.samples;

/** A line that could not be read; the reader keeps going. */
public record ParseError(String file, long line, String message) {
  /** An error at a sample's {@code where} ("file:line"). */
  public static ParseError at(String where, String message) {
    int colon = where.lastIndexOf(':');
    return new ParseError(where.substring(0, colon), Long.parseLong(where.substring(colon + 1)),
        message);
  }

  @Override
  public String toString() {
    return file + ":" + line + ": " + message;
  }
}
