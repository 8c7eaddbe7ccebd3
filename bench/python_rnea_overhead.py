"""Call overhead of dynid.rnea from Python against the C++ call (docs/python.md, "Call overhead").

    PYTHONPATH=build/python python3 bench/python_rnea_overhead.py [--bench build/bench/dynid-bench]
        [--model adult_humanoid] [--calls 200000]

Times dynid.rnea(model, data, q, v, a) on float64 numpy arrays (viewed in place, no copy) over a
cycle of seeded random states, and runs `dynid-bench --benchmark_filter=BM_RNEA$` (the same C++
function on the same model, states cycled) for the C++ figure; prints both and the difference.
"""

import argparse
import json
import subprocess
import time
from pathlib import Path

import dynid

ROOT = Path(__file__).resolve().parents[1]

parser = argparse.ArgumentParser()
parser.add_argument("--bench", default=str(ROOT / "build" / "bench" / "dynid-bench"))
parser.add_argument("--model", default="adult_humanoid")
parser.add_argument("--calls", type=int, default=200000)
parser.add_argument("--repetitions", type=int, default=5)
args = parser.parse_args()

model = dynid.Model.load(args.model)
data = dynid.Data(model)
states = [dynid.random_state(model, seed=s) for s in range(64)]


def python_per_call():
    rnea = dynid.rnea
    n = len(states)
    start = time.perf_counter()
    for k in range(args.calls):
        q, v, a = states[k % n]
        rnea(model, data, q, v, a)
    return (time.perf_counter() - start) / args.calls


def loop_per_iteration():
    """The bare Python loop with the same indexing and a no-op call of the same arity."""
    n = len(states)

    def noop(m, d, q, v, a):
        return None

    start = time.perf_counter()
    for k in range(args.calls):
        q, v, a = states[k % n]
        noop(model, data, q, v, a)
    return (time.perf_counter() - start) / args.calls


py_times = sorted(python_per_call() for _ in range(args.repetitions))
loop_times = sorted(loop_per_iteration() for _ in range(args.repetitions))
py_us = py_times[len(py_times) // 2] * 1e6
loop_us = loop_times[len(loop_times) // 2] * 1e6

out = subprocess.run([args.bench, "--model", args.model, "--benchmark_filter=BM_RNEA$",
                      "--benchmark_repetitions=5", "--benchmark_format=json"],
                     capture_output=True, text=True, check=True)
runs = [b for b in json.loads(out.stdout)["benchmarks"] if b.get("aggregate_name") == "median"]
cpp_us = runs[0]["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3}[runs[0]["time_unit"]]

print(f"model {args.model}: nq={model.nq} nv={model.nv}")
print(f"C++ rnea (dynid-bench BM_RNEA, median of 5):         {cpp_us:8.3f} us")
print(f"Python dynid.rnea (median of {args.repetitions} x {args.calls} calls):  {py_us:8.3f} us per call")
print(f"  of which the Python loop and a no-op call:          {loop_us:8.3f} us")
print(f"overhead of the binding (Python - loop - C++):         {py_us - loop_us - cpp_us:8.3f} us")
print(f"overhead seen from Python (Python - C++):              {py_us - cpp_us:8.3f} us")
