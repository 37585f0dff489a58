"""Does tilefit.sweep(jobs=2) use two cores from Python?  Not a test (no
timer is asserted anywhere): a measurement, run by hand --

    make shared && TILEFIT_DATA=$PWD PYTHONPATH=python /usr/bin/python3 bench/python_sweep.py

It sweeps FlashAttention 2/3/4 over every shipped machine and 16 x 16 head
dims (d, dv) under two objective lists, with jobs=1 and jobs=2, while a
Python thread samples /proc/self/task every 10 ms: that the sampler runs
at all during the call shows the GIL is released, and the share of
samples with two or more of the library's threads running (state R) shows
the two workers solving at once.  CPU time over wall time is the other
sign, when the machine has two idle cores.
"""
import os
import resource
import threading
import time

import tilefit

SPEC = {"machines": "*", "worksets": ["fa4-fwd", "fa3-fwd", "fa2-fwd"],
        "params": {"d": list(range(16, 257, 16)), "dv": list(range(16, 257, 16))},
        "objectives": [[], "max stages"]}


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


def run(jobs):
    samples, done = [], threading.Event()

    def sample():
        me = threading.get_native_id()
        while not done.is_set():
            samples.append(running_threads(me))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    sampler.start()
    n = sum(1 for _ in tilefit.sweep(SPEC, jobs=jobs))
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    done.set()
    sampler.join()
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    both = 100.0 * sum(s >= 2 for s in samples) / max(1, len(samples))
    print("jobs=%d: %d points, wall %.2f s, cpu %.2f s (cpu/wall %.2f); %d samples during the call, "
          "2+ threads running in %.0f%%" % (jobs, n, t1 - t0, cpu, cpu / (t1 - t0), len(samples), both))


print("load average %.2f %.2f %.2f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
for jobs in (1, 2):
    run(jobs)
