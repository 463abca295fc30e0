"""Paired noise of an A/A from abfleet's JSON report: the sd over pairs of log(median b / median a).

Usage: python3 aa_log_sd.py report.json [METRIC]   (METRIC defaults to metadata_stat)
Boots re-run for interference, warm-up boots and failed boots are left out; arms are "a" and "b".
"""
import json
import math
import statistics
import sys

report = json.load(open(sys.argv[1]))
metric = sys.argv[2] if len(sys.argv) > 2 else "metadata_stat"
pairs = {}
for boot in report["boots"]:
    if boot.get("rerun") or boot.get("warmup_boot") or boot["status"] != "ok":
        continue
    values = boot["values"].get(metric)
    if values:
        pairs.setdefault(boot["pair"], {})[boot["arm"]] = statistics.median(values)
logs = [math.log(p["b"] / p["a"]) for p in pairs.values() if "a" in p and "b" in p]
interfered = sum(1 for boot in report["boots"] if boot.get("interfered"))
print(f"{metric}: pairs {len(logs)}, sd of log ratios {statistics.stdev(logs):.4f}, boots {len(report['boots'])},"
      f" interfered {interfered}, interfered_reruns {report.get('interfered_reruns', 0)}")
