"""tests/data/measured/report.py: --check refuses a stale table and passes
the one --write puts in; --write touches nothing outside its markers and
appends the section to a file that has none."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.environ.get("TILEFIT_DATA", ".")
SCRIPT = os.path.join(ROOT, "tests", "data", "measured", "report.py")
TOOL = os.path.join(ROOT, "tilefit")


def report(*args):
    return subprocess.run([sys.executable, SCRIPT, "--tilefit", TOOL] + list(args), capture_output=True, text=True)


class MeasuredReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tilefit-measured-report-")
        self.md = os.path.join(self.dir, "cost-model.md")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_stale_table_is_refused_then_rewritten(self):
        shutil.copy(os.path.join(ROOT, "docs", "cost-model.md"), self.md)
        with open(self.md) as f:
            text = f.read()
        begin = text.index("<!-- BEGIN measured-report")
        stale = text[:begin] + text[begin:].replace("| points |", "| points (stale) |", 1)
        with open(self.md, "w") as f:
            f.write(stale)
        r = report("--check", self.md)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("stale", r.stderr)
        self.assertEqual(report("--write", self.md).returncode, 0)
        with open(self.md) as f:
            self.assertEqual(f.read(), text)
        self.assertEqual(report("--check", self.md).returncode, 0)

    def test_write_appends_the_section_once(self):
        with open(self.md, "w") as f:
            f.write("# Cost model\n\nEarlier text.\n")
        self.assertEqual(report("--write", self.md).returncode, 0)
        self.assertEqual(report("--write", self.md).returncode, 0)
        with open(self.md) as f:
            text = f.read()
        self.assertTrue(text.startswith("# Cost model\n\nEarlier text.\n\n## Against published measurements\n"))
        self.assertEqual(text.count("<!-- BEGIN measured-report"), 1)
        self.assertEqual(text.count("<!-- END measured-report -->"), 1)
        self.assertEqual(report("--check", self.md).returncode, 0)


if __name__ == "__main__":
    unittest.main()
