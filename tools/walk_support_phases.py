#!/usr/bin/env python3
"""Where a walk's knee load goes, per planned support phase (issue 13, docs/actuators.md).

Reads a walk data set written by `dynid simulate ... --scenario walk` (truth.csv: the true joint
torques and sole wrenches at 1 kHz; dataset.json: the planned phases as `segments`) and prints, over
the walking part (from the first lift-off to the last touch-down), per kind of planned phase: its
duration, the share of the vertical ground force on the planned swing foot, and the left knee's mean
and RMS torque and its integral of tau^2 dt (the winding heat I^2 R follows it); then the swing
foot's share of the weight in each tenth of the planned single supports (a late weight shift shows
as load early in the tenths, an early touch-down as load late), the left knee's mean torque in
each tenth of the planned left stances, and how much of both knees' integral of tau^2 dt falls around
the planned touch-downs (the landing leg's knee, 20 ms before to 150 ms after: the impacts).

    python3 tools/walk_support_phases.py DATASET_DIR [DATASET_DIR ...]
"""

import csv
import json
import math
import sys


def phases(directory):
    segments = json.load(open(f"{directory}/dataset.json"))["segments"]
    singles = [s for s in segments if s["category"] == "single-support"]
    if not singles:
        sys.exit(f"{directory}: no planned single support in dataset.json (not a walk?)")
    start, end = singles[0]["start"], singles[-1]["end"]
    return [s for s in segments if s["start"] >= start - 1e-9 and s["end"] <= end + 1e-9]


def main(directories):
    for directory in directories:
        walk = phases(directory)
        with open(f"{directory}/truth.csv") as f:
            rows = list(csv.DictReader(f))
        stats = {}  # (category, support) -> [samples, swing share, tau, tau^2]
        tenths = [[0.0, 0] for _ in range(10)]
        stance_tau = [[0.0, 0] for _ in range(10)]
        # Touch-downs: the end of each planned single support, landing the foot that was swinging.
        landings = [(s["end"], "r" if s["support"] == "left" else "l") for s in walk if s["category"] == "single-support"]
        knees_tau2 = landing_tau2 = 0.0
        dt = (float(rows[-1]["time"]) - float(rows[0]["time"])) / (len(rows) - 1)
        k = 0
        for row in rows:
            t = float(row["time"])
            while k < len(walk) and t >= walk[k]["end"]:
                k += 1
            if k == len(walk):
                break
            seg = walk[k]
            if t < seg["start"]:
                continue
            fl = max(float(row["wrench.l_sole.fz"]), 0.0)
            fr = max(float(row["wrench.r_sole.fz"]), 0.0)
            total = fl + fr
            swing = {"left": fr, "right": fl}.get(seg["support"], 0.0)  # support names the stance foot
            share = swing / total if total > 0.0 else 0.0
            tau = float(row["tau.l_knee"])
            for side in ("l", "r"):
                knee = float(row[f"tau.{side}_knee"])
                knees_tau2 += knee * knee * dt
                if any(foot == side and -0.02 <= t - land <= 0.15 for land, foot in landings):
                    landing_tau2 += knee * knee * dt
            s = stats.setdefault((seg["category"], seg["support"]), [0, 0.0, 0.0, 0.0])
            s[0] += 1
            s[1] += share
            s[2] += tau
            s[3] += tau * tau
            if seg["category"] == "single-support":
                b = min(int(10.0 * (t - seg["start"]) / (seg["end"] - seg["start"])), 9)
                tenths[b][0] += share
                tenths[b][1] += 1
                if seg["support"] == "left":
                    stance_tau[b][0] += tau
                    stance_tau[b][1] += 1
        print(directory)
        print("  planned phase (stance) | time [s] | swing-foot load share | l_knee tau mean / RMS [N m] | "
              "l_knee integral tau^2 dt [N^2 m^2 s]")
        for (category, support), (n, share, tau, tau2) in sorted(stats.items()):
            print(f"  {category} ({support}) | {n * dt:.2f} | {share / n:.3f} | {tau / n:+.2f} / "
                  f"{math.sqrt(tau2 / n):.2f} | {tau2 * dt:.1f}")
        print("  swing-foot load share per tenth of the planned single supports: " +
              " ".join(f"{s / n:.2f}" if n else "-" for s, n in tenths))
        print("  l_knee mean torque per tenth of the planned left stances [N m]: " +
              " ".join(f"{s / n:+.2f}" if n else "-" for s, n in stance_tau))
        print(f"  both knees' integral tau^2 dt over the walking phases: {knees_tau2:.1f}, around the "
              f"touch-downs: {landing_tau2:.1f} ({100.0 * landing_tau2 / knees_tau2:.1f} %)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    main(sys.argv[1:])
