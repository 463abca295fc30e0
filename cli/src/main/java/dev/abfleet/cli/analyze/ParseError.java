package dev.abfleet.cli.analyze;

/** A line that could not be read; the reader keeps going. */
record ParseError(String file, long line, String message) {
  @Override
  public String toString() {
    return file + ":" + line + ": " + message;
  }
}
