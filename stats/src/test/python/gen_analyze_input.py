"""Seeded input for timing `abfleet analyze` (BENCHMARKS.md, "abfleet analyze speed").

Writes JSON Lines as ARCHITECTURE.md describes them ("Formats the tools depend on"):
EXPERIMENTS experiments x 5 metrics x PAIRS pairs x 2 arms, one line per boot and metric
(1,000 x 5 x 32 x 2 = 320,000 lines by default). Pairs rotate over HOSTS hosts; with more
than one host the engine adds its host bootstrap, the expensive case. Python 3 standard
library only:

    python3 stats/src/test/python/gen_analyze_input.py --hosts 4 > /tmp/analyze-4hosts.jsonl
"""
import argparse
import json
import math
import random
import sys

METRICS = [
    ("metadata_stat", "ops/s", "higher"),
    ("negative_lookup", "ops/s", "higher"),
    ("create_delete", "ops/s", "higher"),
    ("seq_read", "MB/s", "higher"),
    ("boot_time", "ms", "lower"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--experiments", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=32)
    ap.add_argument("--hosts", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    for e in range(args.experiments):
        exp = "e%04d" % e
        # a tenth of the experiments carry a real change of -5%..+5% on the first metric
        effect = rng.uniform(-0.05, 0.05) if e % 10 == 0 else 0.0
        offsets = [rng.gauss(0, 0.05) for _ in range(args.hosts)]
        for p in range(args.pairs):
            host = p % args.hosts
            pair_level = offsets[host] + rng.gauss(0, 0.04)
            for arm in ("base", "cand"):
                boot = "%s-%s-%d" % (exp, arm, p)
                shared = rng.gauss(0, 0.02)
                for m, (metric, unit, better) in enumerate(METRICS):
                    shift = math.log1p(effect) if arm == "cand" and m == 0 else 0.0
                    value = 1000.0 * math.exp(pair_level + shared + shift + rng.gauss(0, 0.03))
                    out.write(json.dumps({
                        "experiment": exp, "arm": arm, "host": "h%d" % host, "pair": p,
                        "boot": boot, "metric": metric, "value": round(value, 3),
                        "unit": unit, "better": better}, separators=(",", ":")))
                    out.write("\n")


if __name__ == "__main__":
    main()
