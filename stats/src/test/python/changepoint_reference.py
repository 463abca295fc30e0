"""Reference values for the change-point tests (dev.abfleet.stats.changepoint), computed
independently of the Java code with scipy's Mann-Whitney U and exact enumeration.

Run: python3 stats/src/test/python/changepoint_reference.py (checked with scipy 1.17.1,
numpy 2.4.6) and paste the printed values into ChangePointReferenceTest.java.

The split statistic for a split at t (values [0, t) vs [t, n)) is
|U - t(n-t)/2| / sqrt(t(n-t)(n+1)/12), U = scipy.stats.mannwhitneyu(before, after).statistic.
The p-value of the maximum statistic over splits t in [m, n-m] is exact here: the share of
all n! orderings of the values whose maximum reaches the observed one.
"""
import itertools
import math

import numpy as np
from scipy import stats


def z(values, t):
    n = len(values)
    u = stats.mannwhitneyu(values[:t], values[t:], alternative="two-sided").statistic
    return abs(u - t * (n - t) / 2) / math.sqrt(t * (n - t) * (n + 1) / 12)


def best(values, m):
    n = len(values)
    scores = [(z(values, t), t) for t in range(m, n - m + 1)]
    top = max(s for s, _ in scores)
    return min(t for s, t in scores if s >= top - 1e-12), top


def max_z_fast(ranks, m):
    # Same statistic from rank sums, used only to make the n! enumeration affordable;
    # checked against the scipy version below on the observed orderings.
    n = len(ranks)
    c = np.cumsum(ranks)
    t = np.arange(m, n - m + 1)
    u = c[t - 1] - t * (t + 1) / 2
    return np.max(np.abs(u - t * (n - t) / 2) / np.sqrt(t * (n - t) * (n + 1) / 12))


def exact_p(values, m):
    ranks = stats.rankdata(values, method="average")
    observed = max_z_fast(ranks, m)
    assert abs(observed - best(values, m)[1]) < 1e-9
    hits = total = 0
    for perm in itertools.permutations(ranks):
        total += 1
        if max_z_fast(np.array(perm), m) >= observed - 1e-9:
            hits += 1
    return hits / total


def plain(value):
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    return value


def show(name, value):
    print(f"{name} = {plain(value)!r}")


print("# split statistics of a 12-value series with ties, every split t = 3..9")
series = [10.0, 11.0, 10.5, 10.0, 9.8, 10.2, 12.0, 12.5, 11.9, 12.5, 12.2, 12.0]
show("series", series)
show("z", [round(z(series, t), 12) for t in range(3, 10)])
show("best", best(series, 3))

print("# exact permutation p of the max statistic, n = 8, min segment 3")
for name, s in [
    ("step", [5.0, 5.2, 4.9, 5.1, 6.0, 6.3, 6.1, 6.2]),
    ("spike", [5.0, 5.2, 4.9, 9.9, 5.1, 5.0, 5.3, 4.8]),
    ("mixed", [5.0, 5.6, 4.9, 5.1, 5.4, 6.3, 5.0, 6.2]),
]:
    show(name, s)
    show(name + "_best", best(s, 3))
    show(name + "_p", exact_p(s, 3))
