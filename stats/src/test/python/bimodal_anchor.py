"""Independent check of `abfleet calibrate`'s bimodal scenario anchors (BENCHMARKS.md, "Small
samples"): the scenario re-implemented in numpy after cli/.../calibrate/Scenario.java, the
benchstat-like rule (Mann-Whitney per metric at 0.05, scipy) and its family-wise A/A rate, and
the rule's power once its per-metric level is lowered until that rate is 5%.

    python3 bimodal_anchor.py fw 8 12 16      # family-wise A/A rate, 20,000 experiments each
    python3 bimodal_anchor.py sized 12 16     # size-adjusted level and power at +-5%, 4,000 each
"""
import math
import sys

import numpy as np
from scipy.stats import mannwhitneyu

M=4
def gen(rng, scen, n, eff):
    a=np.zeros((M,n)); b=np.zeros((M,n))
    hc=4 if scen=='hosts' else 1
    off=0.10*rng.standard_normal(hc) if scen=='hosts' else np.zeros(hc)
    sd=[0.02+0.04*h/3 for h in range(hc)] if scen=='hosts' else [0.03]
    def boot(common,s):
        shared=0.02*rng.standard_normal()
        if scen=='outliers' and rng.random()<0.05: shared-=np.log1p(0.2+0.3*rng.random())
        if scen=='bimodal' and rng.random()<0.30: shared-=0.12
        return common+shared+s*rng.standard_normal(M)
    for i in range(n):
        h=i%hc
        c=off[h]+0.04*rng.standard_normal()
        if scen=='drift': c+=0.15*i/max(1,n-1)
        a[:,i]=boot(c,sd[h]); b[:,i]=boot(c,sd[h])
    b[0]+=np.log1p(eff)
    return a,b  # log values


def wilson(k, n, z=1.96):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def family_wise(n, runs=20000, seed=5):
    rng = np.random.default_rng(seed)
    fw = 0
    for _ in range(runs):
        a, b = gen(rng, 'bimodal', n, 0.0)
        fw += mannwhitneyu(a, b, axis=1, alternative='two-sided').pvalue.min() <= 0.05
    lo, hi = wilson(fw, runs)
    print(f'bimodal {n} pairs: family-wise A/A {fw / runs:.4f} [{lo:.4f}-{hi:.4f}]')


def size_adjusted(n):
    rng = np.random.default_rng(11)
    mins = np.sort([mannwhitneyu(*gen(rng, 'bimodal', n, 0.0), axis=1).pvalue.min()
                    for _ in range(20000)])
    level = mins[int(0.05 * len(mins))]
    rng = np.random.default_rng(12)
    runs = 4000
    hit = sum(mannwhitneyu(*gen(rng, 'bimodal', n, 0.05 * (1 if e % 2 == 0 else -1)),
                           axis=1).pvalue[0] < level for e in range(runs))
    print(f'bimodal {n} pairs: per-metric level {level:.4f} (family-wise {(mins < level).mean():.4f}),'
          f' power +-5% {hit / runs:.4f}')


if __name__ == '__main__':
    what, sizes = sys.argv[1], [int(x) for x in sys.argv[2:]]
    for n in sizes:
        family_wise(n) if what == 'fw' else size_adjusted(n)
