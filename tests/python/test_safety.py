"""Python handles under threads and the collector: Problem.close() while
other threads are inside solve(), a sweep iterator closed early or
collected mid-sweep with SIGPIPE at its default action.  Each runs in a
child interpreter, so that a crash (SIGSEGV, the SIGPIPE death, exit 141)
is a failed test rather than the end of the test run; the child prints
what it counted as JSON."""

import json
import os
import subprocess
import sys
import textwrap
import unittest


def child(code, timeout=120):
    """Runs code in a fresh interpreter with this one's environment;
    returns (exit status, the JSON its last line prints, stderr)."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=timeout)
    lines = r.stdout.strip().splitlines()
    return r.returncode, json.loads(lines[-1]) if r.returncode == 0 and lines else None, r.stderr


class CloseWhileSolving(unittest.TestCase):
    def test_close_waits_for_the_calls_in_flight(self):
        """Four threads solve in a loop while the main thread closes the
        Problem: each call either answers or raises "closed", none runs on
        a freed handle (before: SIGSEGV), and every thread sees the close."""
        rc, got, err = child("""
            import json, threading, time
            import tilefit
            answered = closed = 0
            lock = threading.Lock()
            for round in range(20):
                p = tilefit.Problem("h100-sxm", "fa3-fwd", params={"d": 128})
                want = p.solve()
                start = threading.Barrier(5)

                def work():
                    global answered, closed
                    start.wait()
                    while True:
                        try:
                            r = p.solve()
                        except tilefit.Error as e:
                            assert "solve: the Problem is closed" == e.message, e.message
                            with lock:
                                closed += 1
                            return
                        assert r == want
                        with lock:
                            answered += 1

                threads = [threading.Thread(target=work) for _ in range(4)]
                for t in threads:
                    t.start()
                start.wait()
                time.sleep(0.002 * (round % 5))
                p.close()
                p.close()  # twice: nothing more
                for t in threads:
                    t.join()
            print(json.dumps({"answered": answered, "closed": closed}))
            """)
        self.assertEqual(rc, 0, err)
        self.assertEqual(got["closed"], 80)  # each thread of each round saw the close
        self.assertGreater(got["answered"], 0)

    def test_collected_while_another_thread_solves(self):
        """The last reference dropped on one thread while another is inside
        solve(): the handle is freed after the call, by the collector."""
        rc, got, err = child("""
            import gc, json, threading
            import tilefit
            answers = []
            for _ in range(20):
                p = tilefit.Problem("h100-sxm", "fa3-fwd", params={"d": 128})
                t = threading.Thread(target=lambda q=p: answers.append(q.solve(top=3)))
                t.start()
                del p
                gc.collect()
                t.join()
            print(json.dumps({"answers": len(answers)}))
            """)
        self.assertEqual(rc, 0, err)
        self.assertEqual(got["answers"], 20)


class SweepClosedEarly(unittest.TestCase):
    SPEC = {"machines": ["h100-sxm"], "worksets": ["fa3-fwd"],
            "params": {"d": list(range(16, 257, 16)), "dv": list(range(16, 257, 16))}}

    @unittest.skipUnless(os.path.isdir("/proc/self/fd"), "counts descriptors in /proc/self/fd")
    def test_closed_or_collected_mid_sweep(self):
        """With SIGPIPE at its default action (as a shell's pipeline leaves
        it), a sweep closed early, left in a with block, or collected
        mid-sweep neither kills the process (exit 141) nor leaves a thread
        or a descriptor behind."""
        rc, got, err = child("""
            import gc, json, os, signal, threading, time
            import tilefit
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            spec = %s

            def fds():
                return len(os.listdir("/proc/self/fd"))

            tilefit.version()  # the library loaded before counting
            base_fds, base_threads = fds(), threading.active_count()
            for i in range(12):
                points = tilefit.sweep(spec, memo_max=0)
                assert next(points)["index"] == 0
                if i %% 3 == 0:
                    points.close()
                elif i %% 3 == 1:
                    with points:
                        next(points)
                else:
                    del points  # collected mid-sweep: no join, the thread ends at its next write
                    gc.collect()
            deadline = time.monotonic() + 60
            while threading.active_count() > base_threads and time.monotonic() < deadline:
                time.sleep(0.01)
            print(json.dumps({"threads": threading.active_count() - base_threads, "fds": fds() - base_fds}))
            """ % json.dumps(self.SPEC))
        self.assertEqual(rc, 0, "exit %d: %s" % (rc, err))
        self.assertEqual(got, {"threads": 0, "fds": 0})


if __name__ == "__main__":
    unittest.main()
