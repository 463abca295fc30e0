"""Reference values for JointSignFlipTest: single-step maxT over metrics with every one of
the 2^n joint sign flips enumerated (no halving, no Gray code), T = |sum of w|, w_i the
difference of the van der Waerden scores (scipy rankdata mid-ranks, norm.ppf(r / (2n + 1))) of a
pair's two boots among the metric's 2n pooled log values, intervals by a grid scan of shifts;
written independently of the Java code. Run: python3 joint_sign_flip_reference.py"""
import itertools
import numpy as np
from scipy.stats import norm, rankdata

D = np.array([
    [0.061, 0.048, -0.012, 0.083, 0.037, 0.055, 0.291, 0.044, 0.029, 0.070],
    [0.010, -0.031, 0.022, 0.005, -0.018, 0.027, 0.254, -0.009, 0.014, 0.001],
    [-0.020, 0.015, 0.008, -0.027, 0.033, -0.004, 0.240, 0.019, -0.011, 0.006],
])
# baseline logs: a pair level shared by the metrics plus a per-metric wobble
B = np.array([[7.0 + 0.02 * (i % 3) + 0.01 * ((7 * i + 3 * j) % 5) for i in range(10)]
              for j in range(3)])
C = B + D
TIE = 1e-9


def scores(b, c):
    n = len(b)
    z = norm.ppf(rankdata(np.concatenate([b, c])) / (2 * n + 1))
    return z[n:] - z[:n]


def stats_t(b, c):
    """Each metric's T for every one of the 2^n patterns (row 0: no flip)."""
    m, n = b.shape
    f = np.array(list(itertools.product([1.0, -1.0], repeat=n)))
    return np.array([np.abs(f @ scores(b[j], c[j])) for j in range(m)])


def family(b, c):
    t = stats_t(b, c)
    mx = t.max(axis=0)
    obs = t[:, 0]
    p = np.array([np.mean(t[j] >= obs[j] * (1 - TIE)) for j in range(len(obs))])
    adjusted = np.array([np.mean(mx >= o * (1 - TIE)) for o in obs])
    return p, adjusted


def interval(b, c, j, alpha=0.05, step=2e-5):
    """Shifts s for which the family test with metric j's candidate shifted by -s keeps j."""
    d = c[j] - b[j]
    accepted = []
    for s in np.arange(d.min() - 0.1, d.max() + 0.1, step):
        c2 = c.copy()
        c2[j] = c[j] - s
        if family(b, c2)[1][j] > alpha:
            accepted.append(s)
    return min(accepted), max(accepted)


for n in (10, 8):
    b, c = B[:, :n], C[:, :n]
    p, adj = family(b, c)
    print(n, "pairs p:", [repr(float(v)) for v in p])
    print(n, "pairs adjusted:", [repr(float(v)) for v in adj])
    if n == 8:
        for j in (0, 1):
            print(n, "pairs metric", j, "interval:", interval(b, c, j, step=1e-4))
