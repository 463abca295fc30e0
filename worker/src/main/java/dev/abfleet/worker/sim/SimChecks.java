package dev.abfleet.worker.sim;

/** Range checks shared by the model records; messages name the field and the valid range. */
final class SimChecks {
  private SimChecks() {}

  static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("sim model: " + message);
    }
  }

  static void positive(String field, double v) {
    require(Double.isFinite(v) && v > 0, field + " is " + v + "; expected a number > 0");
  }

  static void sigma(String field, double v) {
    require(Double.isFinite(v) && v >= 0 && v <= 2, field + " is " + v + "; expected a lognormal sigma from 0 to 2");
  }

  static void probability(String field, double v) {
    require(Double.isFinite(v) && v >= 0 && v <= 1, field + " is " + v + "; expected a probability from 0 to 1");
  }
}
