#!/usr/bin/env python3
"""Per-class error of identified base parameters against the truth, relative to the nominal model's.

Reads base_parameters.json files written by `dynid identify inertial ... --truth URDF --out DIR`
(each entry: name, value, std, nominal, truth) and prints, per class of base parameter,

    ratio = median |identified - truth| / median |nominal - truth|

(< 1: the identification beats the CAD model; > 1: it is worse), with the number of parameters of
the class. Classes come from the name's suffix after the last '.': m (mass), mcx/mcy/mcz (first
moments), Ixx/Ixy/Ixz, Iyy/Iyz, Izz.

With --determined TRUTH_DIR (the output directory of the same identification on the truth stream,
`--source truth`), it also prints the share of *determined* base parameters within 1 % of the truth.

  Determined: the standard deviation the motion leaves on the parameter under the sensor noise
  model that weights the rows (one F/T sample: 0.125 N, 0.003 N m, at the data's rate), is below
  `--det-threshold` (default 1 %) of the parameter's scale. That standard deviation is the
  truth-stream fit's `std` divided by its `residual_rms_weighted` (summary.json): the truth fit has
  near-zero residuals, so its reported std is sigma * sqrt(diag((A^T W A)^-1)) with a tiny sigma;
  dividing by sigma leaves sqrt(diag((A^T W A)^-1)), the information of the motion alone.
  Scale and relative error (as dynid's base_param_max_rel_error): |x - truth| / max(|truth|,
  1 % of the largest |truth| of the same unit: kg, kg m, kg m^2).

Usage:
  parameter_error_ratio.py OUT1 [OUT2 ...] [--determined TRUTH_OUT] [--det-threshold 0.01]
  (an argument may be a directory holding base_parameters.json, or the file itself)
"""

import argparse
import json
import math
import os
import statistics
import sys

CLASSES = [
    ("mass", ("m",)),
    ("first moments", ("mcx", "mcy", "mcz")),
    ("Ixx,Ixy,Ixz", ("Ixx", "Ixy", "Ixz")),
    ("Iyy,Iyz", ("Iyy", "Iyz")),
    ("Izz", ("Izz",)),
]


def suffix(name):
    return name[name.rfind(".") + 1:]


def param_class(name):
    s = suffix(name)
    for label, members in CLASSES:
        if s in members:
            return label
    return "other"


def unit_class(name):
    s = suffix(name)
    if s == "m":
        return 0
    if s.startswith("mc"):
        return 1
    return 2


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "base_parameters.json")
    with open(path) as f:
        entries = json.load(f)
    if not entries or "truth" not in entries[0]:
        sys.exit(path + ": no 'truth' values (run identify with --truth URDF)")
    return path, entries


def summary_of(bp_path):
    p = os.path.join(os.path.dirname(bp_path), "summary.json")
    if os.path.exists(p):
        with open(p) as f:
            return json.load(f)
    return None


def scales(entries):
    top = [0.0, 0.0, 0.0]
    for e in entries:
        u = unit_class(e["name"])
        top[u] = max(top[u], abs(e["truth"]))
    return [max(abs(e["truth"]), 0.01 * top[unit_class(e["name"])], 1e-300) for e in entries]


def ratios(entries):
    rows = []
    for label, _ in CLASSES:
        sel = [e for e in entries if param_class(e["name"]) == label]
        if not sel:
            rows.append((label, 0, None))
            continue
        ident = statistics.median(abs(e["value"] - e["truth"]) for e in sel)
        nom = statistics.median(abs(e["nominal"] - e["truth"]) for e in sel)
        rows.append((label, len(sel), ident / nom if nom > 0 else math.inf))
    return rows


def fmt(r):
    if r is None:
        return "-"
    if r == 0 or (abs(r) < 1e-2 or abs(r) >= 1e3):
        return "%.1e" % r
    return "%.3g" % r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outputs", nargs="+", help="identify --out directories or base_parameters.json files")
    ap.add_argument("--determined", help="identify --out directory of the truth-stream fit of the same data")
    ap.add_argument("--det-threshold", type=float, default=0.01,
                    help="determined: noise-model std below this fraction of the parameter's scale")
    ap.add_argument("--label", action="append", default=[], help="row label per output (default: path)")
    args = ap.parse_args()

    det = None
    if args.determined:
        tpath, tentries = load(args.determined)
        summ = summary_of(tpath)
        sigma = summ["residual_rms_weighted"] if summ else None
        if not sigma or sigma <= 0:
            sys.exit(args.determined + ": summary.json without a positive residual_rms_weighted")
        tscale = scales(tentries)
        det = {e["name"]: (e["std"] / sigma) / s < args.det_threshold for e, s in zip(tentries, tscale)}

    header = ["data"] + ["%s (%d)" % (label, 0) for label, _ in CLASSES]
    table = []
    for i, out in enumerate(args.outputs):
        path, entries = load(out)
        label = args.label[i] if i < len(args.label) else os.path.dirname(path) or path
        rs = ratios(entries)
        header = ["data"] + ["%s (%d)" % (lab, n) for lab, n, _ in rs]
        row = [label] + [fmt(r) for _, _, r in rs]
        sc = scales(entries)
        rel = [abs(e["value"] - e["truth"]) / s for e, s in zip(entries, sc)]
        within = sum(1 for r in rel if r <= 0.01)
        extra = "within 1 %%: %d/%d" % (within, len(entries))
        if det is not None:
            d = [r for e, r in zip(entries, rel) if det.get(e["name"], False)]
            dw = sum(1 for r in d if r <= 0.01)
            med = statistics.median(d) if d else float("nan")
            extra += "; determined %d, within 1 %%: %d (%.0f %%), median rel. error %.2g" % (
                len(d), dw, 100.0 * dw / max(1, len(d)), med)
        summ = summary_of(path)
        if summ and "validation" in summ:
            v = summ["validation"]
            def trio(k):
                x = v.get(k, {})
                return "/".join("%.3g" % x[c] if isinstance(x.get(c), (int, float)) else "-"
                                for c in ("nominal", "identified", "truth"))
            extra += "; held-out RMS nom/id/truth: force %s N, moment %s N m" % (
                trio("wrench_rms"), trio("moment_rms"))
        table.append((row, extra))

    widths = [max(len(header[k]), *(len(r[0][k]) for r in table)) for k in range(len(header))]
    print("ratio = median|identified - truth| / median|nominal - truth| per class (count)")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row, extra in table:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))
        print("    " + extra)
    if det is not None:
        print("determined: std from the truth-stream fit's information under the F/T noise model "
              "< %g of max(|truth|, 1 %% of the unit's largest |truth|) (%d of %d)" %
              (args.det_threshold, sum(det.values()), len(det)))


if __name__ == "__main__":
    main()
