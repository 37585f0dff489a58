"""What the Python module costs over the command line.  Not a test (no
timer is asserted anywhere): a measurement, run by hand --

    make && PYTHONPATH=python /usr/bin/python3 bench/python_sweep.py [RUNS]

1. A sweep's CPU time (user + sys, of every thread), tilefit.sweep against
   `tilefit sweep` on the same points: FlashAttention 2/3/4 on every
   shipped machine, 16 x 16 head dims (d, dv), two objective lists (9,728
   points solved, the rest skipped: architecture).  The command line
   writes its lines to /dev/null and, as a reader would take them, into a
   pipe; Python reads them from the library's pipe and parses each into a
   dict (the iterator the user gets).  Median of RUNS runs (default 5).
2. Whether sweep(jobs=2) uses two cores: a Python thread samples
   /proc/self/task every 10 ms while the sweep runs; that the sampler runs
   at all shows the GIL is released, the share of samples with two or more
   of the library's threads running (state R) the two workers at once.
3. The cost of one more solve of the same problem: tilefit.solve (the
   machine and workset loaded and bound every call) against
   Problem.solve (loaded and bound once), median over 500 calls.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import tilefit

SPEC = {"machines": "*", "worksets": ["fa4-fwd", "fa3-fwd", "fa2-fwd"],
        "params": {"d": list(range(16, 257, 16)), "dv": list(range(16, 257, 16))},
        "objectives": [[], "max stages"]}
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
BIN = os.environ.get("TILEFIT_BIN", "./tilefit")


def cpu(who):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def cli_cpu(path, stdout):
    c0 = cpu(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen([BIN, "sweep", path, "--quiet"], stdout=stdout, stderr=subprocess.DEVNULL)
    n = 0
    if stdout == subprocess.PIPE:
        for _ in p.stdout:
            n += 1
    p.wait()
    return cpu(resource.RUSAGE_CHILDREN) - c0, n


def python_cpu():
    p0 = cpu(resource.RUSAGE_SELF)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the skipped points' warning
        n = sum(1 for point in tilefit.sweep(SPEC) if point["status"])
    return cpu(resource.RUSAGE_SELF) - p0, n


def sweep_cpu():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "spec.json")
        with open(path, "w") as f:
            json.dump(SPEC, f)
        times = {"cli > /dev/null": [], "cli | reader": [], "python": []}
        counts = set()
        for _ in range(RUNS):  # interleaved, so that a busy moment falls on all three
            with open(os.devnull, "w") as null:
                t, _n = cli_cpu(path, null)
            times["cli > /dev/null"].append(t)
            t, n = cli_cpu(path, subprocess.PIPE)
            times["cli | reader"].append(t)
            counts.add(n)
            t, n = python_cpu()
            times["python"].append(t)
            counts.add(n)
    assert len(counts) == 1, counts
    med = {k: statistics.median(v) for k, v in times.items()}
    print("1. sweep of %d points, CPU seconds (user+sys), median of %d:" % (counts.pop(), RUNS))
    for k, v in times.items():
        print("   %-16s %.2f  (%s)" % (k, med[k], " ".join("%.2f" % x for x in v)))
    print("   python / cli > /dev/null = %.2f, python / cli | reader = %.2f" %
          (med["python"] / med["cli > /dev/null"], med["python"] / med["cli | reader"]))


def running_threads(me):
    n = 0
    for t in os.listdir("/proc/self/task"):
        if int(t) == me:
            continue
        try:
            with open("/proc/self/task/%s/stat" % t) as f:
                n += f.read().rsplit(")", 1)[1].split()[0] == "R"
        except OSError:
            pass
    return n


def two_cores(jobs):
    samples, done = [], threading.Event()

    def sample():
        me = threading.get_native_id()
        while not done.is_set():
            samples.append(running_threads(me))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    r0, t0 = cpu(resource.RUSAGE_SELF), time.perf_counter()
    sampler.start()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        n = sum(1 for _ in tilefit.sweep(SPEC, jobs=jobs))
    t1, r1 = time.perf_counter(), cpu(resource.RUSAGE_SELF)
    done.set()
    sampler.join()
    both = 100.0 * sum(s >= 2 for s in samples) / max(1, len(samples))
    print("   jobs=%d: %d points, wall %.2f s, cpu %.2f s (cpu/wall %.2f); %d samples during the call, "
          "2+ threads running in %.0f%%" % (jobs, n, t1 - t0, r1 - r0, (r1 - r0) / (t1 - t0), len(samples), both))


def per_call(n=500):
    args = dict(params={"d": 128})
    p = tilefit.Problem("h100-sxm", "fa3-fwd", **args)
    assert p.solve() == tilefit.solve("h100-sxm", "fa3-fwd", **args)
    rows = []
    for name, fn in (("tilefit.solve", lambda: tilefit.solve("h100-sxm", "fa3-fwd", **args)),
                     ("Problem.solve", p.solve),
                     ("Problem.solve(place=...)", lambda: p.solve(place={"P": "smem"}))):
        times = []
        for _ in range(n):
            t0 = time.process_time()
            fn()
            times.append(time.process_time() - t0)
        rows.append((name, statistics.median(times) * 1e3, statistics.mean(times) * 1e3))
    print("3. one solve of fa3-fwd d=128 on h100-sxm, CPU ms per call over %d calls:" % n)
    for name, med, mean in rows:
        print("   %-26s median %.3f, mean %.3f" % (name, med, mean))


print("load average %.2f %.2f %.2f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
sweep_cpu()
print("2. sweep(jobs=N) from Python:")
for jobs in (1, 2):
    two_cores(jobs)
per_call()
