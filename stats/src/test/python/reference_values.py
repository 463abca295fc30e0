"""Reference values for the stats module tests, computed independently of the Java code.

Run from anywhere with Python 3 + numpy + scipy (checked with scipy 1.17.1):

    python3 stats/src/test/python/reference_values.py

and paste the printed values into the Java tests under stats/src/test/java/dev/abfleet/stats/.
Inputs are printed with repr() so that Java parses the very same doubles.
"""
import itertools
import math

import numpy as np
from scipy import stats


def fixed(seed, n, scale=0.1, shift=0.0):
    """Differences rounded to 6 decimals: exact decimal literals in both languages."""
    rng = np.random.default_rng(seed)
    return [round(float(x), 6) for x in rng.normal(shift, scale, n)]


def brute_force_p(d):
    """Two-sided signed-rank p by enumerating all 2^n sign flips (zeros dropped, mid-ranks)."""
    d = [x for x in d if x != 0]
    ranks = stats.rankdata(np.abs(d), method="average")
    observed = sum(r for r, x in zip(ranks, d) if x > 0)
    sums = [sum(r for r, s in zip(ranks, signs) if s) for signs in
            itertools.product([False, True], repeat=len(d))]
    lower = sum(1 for s in sums if s <= observed + 1e-9) / len(sums)
    upper = sum(1 for s in sums if s >= observed - 1e-9) / len(sums)
    return min(1.0, 2 * min(lower, upper))


def walsh(d):
    return sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))


def inverted_interval(d, alpha, method):
    """Brute force: every shift theta between two Walsh averages whose test of d - theta
    does not reject at level alpha; the interval is the closure of that set."""
    w = walsh(d)
    edges = [w[0] - 1.0] + w + [w[-1] + 1.0]
    accepted = []
    for i in range(len(edges) - 1):
        lo, hi = edges[i], edges[i + 1]
        if lo == hi:
            continue
        theta = (lo + hi) / 2
        p = stats.wilcoxon(np.array(d) - theta, method=method, correction=True).pvalue
        if p > alpha:
            accepted.append((lo, hi))
    return accepted[0][0], accepted[-1][1]


def show(name, value):
    print(f"{name} = {value!r}")


print("# exact p without ties, scipy.stats.wilcoxon(method='exact')")
for n, seed in [(5, 1), (8, 2), (12, 3)]:
    d = fixed(seed, n, shift=0.05)
    show(f"d{n}", d)
    show(f"  p_exact_n{n}", float(stats.wilcoxon(d, method="exact").pvalue))

print("# p with ties and zeros, brute force over 2^n sign flips")
ties = [0.1, -0.1, 0.2, 0.2, 0.0, 0.3, -0.05, 0.1, 0.0, 0.4, 0.2, -0.3]
show("ties", ties)
show("  p_brute_ties", brute_force_p(ties))
ties2 = [0.5, 0.5, 0.5, -0.5, 1.0, 1.0, 0.0]
show("ties2", ties2)
show("  p_brute_ties2", brute_force_p(ties2))

print("# n=60, scipy.stats.wilcoxon(method='approx', correction=True)")
d60 = fixed(4, 60, shift=0.03)
show("d60", d60)
show("  p_approx_n60", float(stats.wilcoxon(d60, method="approx", correction=True).pvalue))
d60t = [round(x, 2) for x in d60]  # rounding makes ties and zeros
show("d60t", d60t)
show("  p_approx_n60_ties",
     float(stats.wilcoxon(d60t, method="approx", correction=True).pvalue))

print("# Hodges-Lehmann: median of Walsh averages")
d12 = fixed(3, 12, shift=0.05)
show("  hl_n12", float(np.median(walsh(d12))))
show("  hl_n8", float(np.median(walsh(fixed(2, 8, shift=0.05)))))

print("# intervals by brute-force test inversion")
show("  ci_n12_a05", inverted_interval(d12, 0.05, "exact"))
show("  ci_n12_a0125", inverted_interval(d12, 0.0125, "exact"))
show("  ci_n60_a05", inverted_interval(d60, 0.05, "approx"))

print("# drift: Kendall's tau of d against pair index")
trend = [round(0.01 * i + x, 6) for i, x in enumerate(fixed(5, 12, scale=0.02))]
show("trend", trend)
show("  p_kendall_exact", float(stats.kendalltau(range(12), trend, method="exact").pvalue))
trend_ties = [round(x, 2) for x in trend]
show("trend_ties", trend_ties)
show("  p_kendall_ties", float(stats.kendalltau(range(12), trend_ties,
                                                 method="asymptotic").pvalue))


def brute_force_mw_p(x, y):
    """Two-sided rank-sum p by enumerating every choice of the candidate's positions."""
    allv = list(x) + list(y)
    ranks = stats.rankdata(allv, method="average")
    n2 = len(y)
    observed = sum(ranks[len(x):])
    sums = [sum(ranks[i] for i in c) for c in itertools.combinations(range(len(allv)), n2)]
    lower = sum(1 for s in sums if s <= observed + 1e-9) / len(sums)
    upper = sum(1 for s in sums if s >= observed - 1e-9) / len(sums)
    return min(1.0, 2 * min(lower, upper))


def shift_interval(x, y, alpha, method):
    """Brute force: shifts theta at which mannwhitneyu(y - theta, x) does not reject."""
    diffs = sorted(b - a for a in x for b in y)
    edges = [diffs[0] - 1.0] + diffs + [diffs[-1] + 1.0]
    accepted = []
    for i in range(len(edges) - 1):
        lo, hi = edges[i], edges[i + 1]
        if lo == hi:
            continue
        theta = (lo + hi) / 2
        p = stats.mannwhitneyu(np.array(y) - theta, x, method=method,
                               use_continuity=True).pvalue
        if p > alpha:
            accepted.append((lo, hi))
    return accepted[0][0], accepted[-1][1]


print("# Mann-Whitney U")
x7 = fixed(11, 7)
y8 = fixed(12, 8, shift=0.1)
show("x7", x7)
show("y8", y8)
show("  p_mw_exact", float(stats.mannwhitneyu(y8, x7, method="exact").pvalue))
show("  hl2_7_8", float(np.median([b - a for a in x7 for b in y8])))
show("  ci2_7_8_a05", shift_interval(x7, y8, 0.05, "exact"))
xt = [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 5.0]
yt = [2.0, 3.0, 4.0, 5.0, 5.0, 6.0]
show("  p_mw_brute_ties", brute_force_mw_p(xt, yt))
x30 = fixed(13, 30)
y35 = fixed(14, 35, shift=0.04)
show("x30", x30)
show("y35", y35)
show("  p_mw_asymptotic", float(stats.mannwhitneyu(y35, x30, method="asymptotic",
                                                   use_continuity=True).pvalue))
x30t = [round(v, 2) for v in x30]
y35t = [round(v, 2) for v in y35]
show("  p_mw_asymptotic_ties", float(stats.mannwhitneyu(y35t, x30t, method="asymptotic",
                                                        use_continuity=True).pvalue))
show("  ci2_30_35_a05", shift_interval(x30, y35, 0.05, "asymptotic"))

print("# Kruskal-Wallis of d by host")
g1, g2, g3 = fixed(21, 6, shift=0.0), fixed(22, 5, shift=0.05), fixed(23, 7, shift=0.1)
show("g1", g1)
show("g2", g2)
show("g3", g3)
show("  p_kruskal", float(stats.kruskal(g1, g2, g3).pvalue))

print("# Fisher's exact test, one-sided (rows baseline, candidate; columns failed, ok)")
for t in ([[1, 31], [7, 25]], [[0, 32], [3, 29]], [[0, 32], [8, 24]], [[0, 8], [4, 4]],
          [[1, 7], [4, 4]], [[4, 4], [0, 8]]):
    name = "_".join(str(v) for row in t for v in row)
    show("  p_fisher_less_" + name, float(stats.fisher_exact(t, alternative="less").pvalue))
    show("  p_fisher_greater_" + name, float(stats.fisher_exact(t, alternative="greater").pvalue))

print("# Lan-DeMets O'Brien-Fleming: P(no crossing) with the Java boundaries")
t = np.array([0.2, 0.4, 0.6, 0.8, 1.0])
c = [4.8769, 3.3569, 2.6803, 2.2898, 2.0310]  # published, alpha 0.05 two-sided, 5 looks
cov = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
rng = np.random.default_rng(0)
z = rng.multivariate_normal(np.zeros(5), cov, size=2_000_000)
show("  p_cross_published", float(np.mean(np.any(np.abs(z) >= c, axis=1))))

print("# above 100 pairs: Wilcoxon estimate and inversion with scipy")
d150 = fixed(31, 150, scale=0.05, shift=0.02)
show("d150", d150)
show("  hl_n150", float(np.median(walsh(d150))))
# Hogg's Q of d150 - theta stays below 2.6 over this interval, so the adaptive test keeps
# Wilcoxon's scores there (at alpha 0.0125 it crosses 2.6 near 0.0089: not Wilcoxon's)
show("  ci_n150_a05", inverted_interval(d150, 0.05, "approx"))


def park_miller(seed, n):
    """Uniforms in (0, 1) from the minimal standard generator: integer arithmetic and one
    division each, so that Java computes the very same doubles."""
    out = []
    for _ in range(n):
        seed = seed * 48271 % 2147483647
        out.append(seed / 2147483647)
    return out, seed


def heavy(seed, n, shift):
    """shift + uniform noise + a ratio of uniforms (heavy tails), arithmetic only."""
    u, _ = park_miller(seed, 3 * n)
    return [shift + 0.1 * (u[3 * i] - 0.5) + 0.01 * (u[3 * i + 1] - 0.5) / (u[3 * i + 2] + 0.05)
            for i in range(n)]


print("# large samples, numpy over every Walsh average / difference")
big = np.array(heavy(7, 3000, 0.02))
i, j = np.triu_indices(len(big))
show("  hl_heavy3000", float(np.median((big[i] + big[j]) / 2)))
bx = np.array(heavy(8, 2000, 0.0))
by = np.array(heavy(9, 2500, 0.03))
diffs = np.sort((by[None, :] - bx[:, None]).ravel())
show("  hl2_heavy2000_2500", float(np.median(diffs)))
big_n = len(diffs)
sigma = np.sqrt(len(bx) * len(by) * (len(bx) + len(by) + 1) / 12.0)
k = int(np.floor(big_n / 2 + 0.5 - stats.norm.ppf(1 - 0.05 / 2) * sigma))
show("  k2_heavy2000_2500_a05", k)
show("  ci2_heavy2000_2500_a05", (float(diffs[k - 1]), float(diffs[big_n - k])))

print("# Kendall's tau at 2,000 pairs (merge-sort counting), ties on a 0.01 grid")
drift = [math.floor((x + 2e-6 * i) * 100) / 100 for i, x in enumerate(heavy(10, 2000, 0.0))]
show("  tau_kendall_2000_ties", float(stats.kendalltau(range(2000), drift).statistic))
show("  p_kendall_2000_ties", float(stats.kendalltau(range(2000), drift,
                                                     method="asymptotic").pvalue))
