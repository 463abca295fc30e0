package dev.abfleet.stats;

import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Two-sided group-sequential boundaries from an error-spending function, spent on each side:
 * the Lan-DeMets O'Brien-Fleming function alpha/2 (t) = 2 - 2 Phi(z_{1-alpha/4} / sqrt(t)), as
 * in gsDesign and ldbounds (two-sided symmetric bounds), for the efficacy tests; the linear
 * function alpha t (Kim-DeMets power family with rho = 1, close to Pocock's) for the futility
 * tests, which should be able to stop early.
 *
 * <p>The standardised statistics Z_k at information fractions t_k behave like a Brownian
 * motion observed at t_k. Boundary c_k is solved so that P(first crossing at look k) =
 * alpha(t_k) - alpha(t_{k-1}) under H0, with the density of the score S_k = Z_k sqrt(t_k) on
 * the continuation region propagated by numerical integration (Simpson's rule, the method of
 * Armitage, McPherson and Rowe; Jennison and Turnbull 2000, ch. 19).
 */
final class Spending {
  private static final NormalDistribution N01 = new NormalDistribution(0, 1);
  private static final int GRID = 401; // odd, for Simpson's rule

  private Spending() {}

  /** How the error is spent over the information fractions. */
  enum Function {
    /** Little early, most at the end: efficacy boundaries. */
    OBRIEN_FLEMING,
    /** In proportion to the information: futility boundaries. */
    LINEAR;

    /** Cumulative two-sided error spent by information fraction t in (0, 1]. */
    double spent(double alpha, double t) {
      return this == OBRIEN_FLEMING ? obrienFleming(alpha, t) : alpha * Math.min(1, t);
    }
  }

  /** Cumulative two-sided alpha spent by information fraction t in (0, 1]. */
  static double obrienFleming(double alpha, double t) {
    double z = N01.inverseCumulativeProbability(1 - alpha / 4);
    return 4 * (1 - N01.cumulativeProbability(z / Math.sqrt(t)));
  }

  /**
   * Boundaries c_k on the Z scale for looks at fractions t (ascending, last = 1): reject at
   * look k when |Z_k| >= c_k.
   */
  static double[] boundaries(double alpha, double[] t) {
    return boundaries(alpha, t, Function.OBRIEN_FLEMING);
  }

  /** As {@link #boundaries(double, double[])}, spending with {@code f}. */
  static double[] boundaries(double alpha, double[] t, Function f) {
    int looks = t.length;
    double[] c = new double[looks];
    c[0] = N01.inverseCumulativeProbability(1 - f.spent(alpha, t[0]) / 2);
    if (looks == 1) {
      return c;
    }
    double[][] grid = firstDensity(c[0], t[0]);
    for (int k = 1; k < looks; k++) {
      double delta = t[k] - t[k - 1];
      double target = f.spent(alpha, t[k]) - f.spent(alpha, t[k - 1]);
      c[k] = solve(grid, delta, Math.sqrt(t[k]), target);
      if (k < looks - 1) {
        grid = propagate(grid, delta, c[k] * Math.sqrt(t[k]));
      }
    }
    return c;
  }

  /** Nominal two-sided p-value level of boundary c. */
  static double nominal(double c) {
    return 2 * (1 - N01.cumulativeProbability(c));
  }

  /** {x_i, Simpson weight times density at x_i} of S_1 on (-c sqrt(t), c sqrt(t)). */
  private static double[][] firstDensity(double c, double t) {
    double half = c * Math.sqrt(t);
    double sd = Math.sqrt(t);
    double[][] g = simpson(half);
    for (int i = 0; i < GRID; i++) {
      g[1][i] *= N01.density(g[0][i] / sd) / sd;
    }
    return g;
  }

  private static double[][] propagate(double[][] from, double delta, double half) {
    double sd = Math.sqrt(delta);
    double[][] g = simpson(half);
    for (int j = 0; j < GRID; j++) {
      double f = 0;
      for (int i = 0; i < GRID; i++) {
        f += from[1][i] * N01.density((g[0][j] - from[0][i]) / sd) / sd;
      }
      g[1][j] *= f;
    }
    return g;
  }

  /** Grid points on [-half, half] and their Simpson weights. */
  private static double[][] simpson(double half) {
    double[][] g = new double[2][GRID];
    double h = 2 * half / (GRID - 1);
    for (int i = 0; i < GRID; i++) {
      g[0][i] = -half + i * h;
      double w = (i == 0 || i == GRID - 1) ? 1 : (i % 2 == 1 ? 4 : 2);
      g[1][i] = w * h / 3;
    }
    return g;
  }

  /** c with P(continue so far, |S_k| >= c sqrt(t_k)) = target; bisection. */
  private static double solve(double[][] grid, double delta, double sqrtT, double target) {
    double lo = 0;
    double hi = 40;
    for (int iter = 0; iter < 100; iter++) {
      double mid = (lo + hi) / 2;
      if (crossing(grid, delta, mid * sqrtT) > target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  private static double crossing(double[][] grid, double delta, double bound) {
    double sd = Math.sqrt(delta);
    double p = 0;
    for (int i = 0; i < GRID; i++) {
      double x = grid[0][i];
      double tails = N01.cumulativeProbability((-bound - x) / sd)
          + (1 - N01.cumulativeProbability((bound - x) / sd));
      p += grid[1][i] * tails;
    }
    return p;
  }
}
