#!/usr/bin/env python3
"""Chart and table of Fuzz/compare-mutators.sh's measurements.

    python3 Fuzz/compare-mutators.py Fuzz/.work/compare

Reads samples.tsv and results.tsv there; writes chart.png (cov and ft over time, one panel
per target and measure, one line per run, a colour per mode) and prints, per target and
mode, each run's final cov, ft and FlowCore line coverage with their medians.
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: write the file only
import matplotlib.pyplot as plt

folder = Path(sys.argv[1] if len(sys.argv) > 1 else "Fuzz/.work/compare")


def rows(name):
    with open(folder / name, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


samples = rows("samples.tsv")
results = rows("results.tsv")
targets = list(dict.fromkeys(r["target"] for r in samples + results))
modes = list(dict.fromkeys(r["mode"] for r in samples + results))
colours = dict(zip(modes, ["tab:blue", "tab:red", "tab:green", "tab:purple"]))

fig, axes = plt.subplots(2, max(len(targets), 1), figsize=(6 * max(len(targets), 1), 8), squeeze=False)
for column, target in enumerate(targets):
    series = defaultdict(list)
    for r in samples:
        if r["target"] == target:
            series[(r["mode"], r["run"])].append((int(r["seconds"]), int(r["cov"]), int(r["ft"])))
    for row, (measure, index) in enumerate([("cov", 1), ("ft", 2)]):
        ax = axes[row][column]
        labelled = set()
        for (mode, run), points in sorted(series.items()):
            points.sort()
            label = None if mode in labelled else f"{mode}"
            labelled.add(mode)
            ax.plot([p[0] for p in points], [p[index] for p in points], color=colours[mode], alpha=0.8, label=label)
        ax.set_title(f"{target}: {measure}")
        ax.set_xlabel("seconds")
        ax.set_ylabel(measure)
        ax.grid(alpha=0.3)
        ax.legend()
fig.tight_layout()
fig.savefig(folder / "chart.png", dpi=80)
print(f"chart: {folder / 'chart.png'}")


def number(text):
    try:
        return float(text.rstrip("%"))
    except ValueError:
        return None


print(f"{'target':16} {'mode':8} {'runs: cov':24} {'ft':26} {'FlowCore lines %':24} medians (cov, ft, lines)")
for target in targets:
    for mode in modes:
        mine = [r for r in results if r["target"] == target and r["mode"] == mode]
        if not mine:
            continue
        cov = [number(r["cov"]) for r in mine]
        ft = [number(r["ft"]) for r in mine]
        lines = [number(r["flowcore_lines"]) for r in mine]

        def median(values):
            values = [v for v in values if v is not None]
            return statistics.median(values) if values else float("nan")

        def show(values):
            return " ".join("n/a" if v is None else f"{v:g}" for v in values)

        print(f"{target:16} {mode:8} {show(cov):24} {show(ft):26} {show(lines):24} "
              f"{median(cov):g}, {median(ft):g}, {median(lines):g}%")
