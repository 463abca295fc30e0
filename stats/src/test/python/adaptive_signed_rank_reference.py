"""Reference values for AdaptiveSignedRankTest, computed independently of the Java code.

The test: zeros dropped; R = mid-rank of |d|; Hogg's tail weight of the symmetrised sample
Q = mean(largest 10% of |d|, fractional) / mean(|d|); cap c = m if Q <= 2.6, ceil(3m/4) if
Q <= 3.2, else ceil(m/2); S = sum over d > 0 of min(R, c). p-values by enumerating all 2^m
sign flips (m <= 16), by exact convolution for the scipy comparison, and by the normal
approximation (half-step continuity correction) at m = 120. Intervals: every gap between
distinct Walsh averages judged at its midpoint with the cap chosen there; hull of accepted
gaps, endpoints Walsh averages.

Run: python3 adaptive_signed_rank_reference.py   (numpy, scipy)
"""
import math

import numpy as np
from scipy import stats


def tail_weight(x):
    a = np.sort(np.abs(np.asarray(x, dtype=float)))[::-1]
    m = len(a)
    g = 0.1 * m
    top, left = 0.0, g
    for v in a:
        if left <= 0:
            break
        w = min(1.0, left)
        top += w * v
        left -= w
    return (top / g) / a.mean()


def cap(m, q):
    if not q > 2.6:
        return m
    return math.ceil(3 * m / 4) if q <= 3.2 else math.ceil(m / 2)


def doubled_scores(x, c):
    a = np.abs(np.asarray(x, dtype=float))
    ranks = stats.rankdata(a)  # mid-ranks
    return np.minimum(np.rint(2 * ranks).astype(np.int64), 2 * c)


def p_from_enumeration(scores2, s):
    m = len(scores2)
    bits = (np.arange(2 ** m)[:, None] >> np.arange(m)) & 1
    sums = bits @ scores2
    lower = np.mean(sums <= s)
    upper = np.mean(sums >= s)
    return min(1.0, 2 * min(lower, upper))


def statistic(x):
    x = np.asarray([v for v in x if v != 0], dtype=float)
    if len(x) == 0:
        return None, None, None
    c = cap(len(x), tail_weight(x))
    sc = doubled_scores(x, c)
    return sc, int(sc[x > 0].sum()), c


def p_enumerated(d):
    sc, s, c = statistic(d)
    return (1.0, None) if sc is None else (p_from_enumeration(sc, s), c)


def p_convolution(d):
    sc, s, c = statistic(d)
    dist = np.zeros(int(sc.sum()) + 1)
    dist[0] = 1.0
    for a in sc:
        shifted = np.zeros_like(dist)
        shifted[a:] = dist[:len(dist) - a]
        dist = 0.5 * (dist + shifted)
    lower, upper = dist[:s + 1].sum(), dist[s:].sum()
    return min(1.0, 2 * min(lower, upper)), c


def p_normal(d):
    sc, s, c = statistic(d)
    mean = sc.sum() / 2.0
    se = math.sqrt((sc.astype(float) ** 2).sum() / 4.0)
    diff = s - mean
    z = (diff - math.copysign(1.0, diff)) / se
    return min(1.0, 2 * stats.norm.cdf(-abs(z))), c


def interval(d, alpha):
    d = np.asarray(d, dtype=float)
    n = len(d)
    walsh = np.unique([(d[i] + d[j]) / 2 for i in range(n) for j in range(i, n)])
    thetas = [walsh[0] - 1] + list((walsh[:-1] + walsh[1:]) / 2) + [walsh[-1] + 1]
    accepted = []
    for k, theta in enumerate(thetas):
        x = d - theta
        c = cap(n, tail_weight(x))
        sc = doubled_scores(x, c)
        p = p_from_enumeration(sc, int(sc[x > 0].sum()))
        if p > alpha * (1 + 1e-12):
            accepted.append(k)
    lo, hi = min(accepted), max(accepted)
    return walsh[lo - 1], walsh[hi]


def java(name, values):
    body = ", ".join(repr(float(v)) for v in values)
    print(f"  static final double[] {name} = {{{body}}};")


rng = np.random.default_rng(20261130)
D10 = np.round(rng.normal(0.04, 0.05, 10), 6)
D12_SLOW = np.round(np.concatenate([rng.normal(0.05, 0.05, 10), [0.31, -0.27]]), 6)
D14 = np.round(np.concatenate([rng.normal(0.03, 0.05, 12), [0.12, -0.13]]), 6)
D16_SLOW = np.round(np.concatenate([rng.normal(0.05, 0.05, 14), [0.35, -0.22]]), 6)
D12_MODERATE = np.concatenate([D10, [-0.03, 0.15]])  # one boot ~3 sd out: 2.6 < Q <= 3.2
TIES = np.array([0.1, -0.1, 0.2, 0.2, 0.0, 0.3, -0.05, 0.1, 0.0, 0.4, 0.2, -0.3])
HEAVY_TIES = np.array([0.5, 0.5, 0.5, -0.5, 1.0, 1.0, 0.0])
D20 = np.round(rng.normal(0.02, 0.05, 20), 6)
D120 = np.round(np.concatenate([rng.normal(0.01, 0.05, 110), rng.normal(0, 0.4, 10)]), 6)

ALL = [("D10", D10), ("D12_SLOW", D12_SLOW), ("D12_MODERATE", D12_MODERATE), ("D14", D14),
       ("D16_SLOW", D16_SLOW), ("TIES", TIES), ("HEAVY_TIES", HEAVY_TIES)]
for name, d in ALL + [("D20", D20), ("D120", D120)]:
    java(name, d)
print()
for name, d in ALL:
    nz = d[d != 0]
    p, c = p_enumerated(d)
    print(f"{name}: Q={tail_weight(nz):.6f} cap={c} of {len(nz)} p_enum={float(p)!r}")
p, c = p_enumerated(D20[:16])
print(f"D20[:16]: cap={c} p_enum={float(p)!r}")
p, c = p_convolution(D20)
print(f"D20: Q={tail_weight(D20):.6f} cap={c} p_conv={float(p)!r} "
      f"scipy_exact={float(stats.wilcoxon(D20, method='exact').pvalue)!r}")
p, c = p_normal(D120)
pc, _ = p_convolution(D120)
print(f"D120: Q={tail_weight(D120):.6f} cap={c} p_normal={float(p)!r} p_exact={float(pc)!r}")
print()
for name, d in ALL[:-1]:
    for alpha in (0.05, 0.0125):
        lo, hi = interval(d, alpha)
        print(f"{name} interval alpha={alpha}: [{float(lo)!r}, {float(hi)!r}]")
