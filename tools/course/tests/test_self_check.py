"""self_check.py (`./course-admin self-check`, `./course self-check`) with a stand-in bank-probe
that writes its table as bank-probe does (the `# device:` line, the header row, one row per
pattern, the summary line on stderr, exit status 3 with --check where a pattern differs) and a
stand-in nvidia-smi: a check that verifies, one where patterns differ, the record reused for the
same GPU, driver and course, --force, no GPU, counters refused, bad usage."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

from course.admin import COMMANDS
from course.grading import self_check
from course_testing import ToolTest, make_build, make_course

#: bank-probe as the self-check runs it, and as much of it as the self-check reads: the options
#: (--random N --seed S --first K | --structured --every K --offset J, --output, --append,
#: --check), its table and its summary line. FAKE_PROBE: '' (measures), 'nogpu', 'refused',
#: 'old' (an older bank-probe: no --every), 'crash'. FAKE_PROBE_DIFFER: 'random:3,structured:14'
#: (the rows whose counters read one wavefront more than the model).
FAKE_PROBE = r'''#!{python}
import os, sys
args = sys.argv[1:]
log = os.environ.get("FAKE_LOG")
if log:
    with open(log, "a") as f:
        f.write("bank-probe " + " ".join(args) + "\n")
mode = os.environ.get("FAKE_PROBE", "")
def value(name, default=None):
    return args[args.index(name) + 1] if name in args else default
if mode == "old" and "--every" in args:
    sys.stderr.write("bank-probe: unknown argument '--every' (try --help)\n")
    sys.exit(2)
if mode == "crash":
    sys.stderr.write("bank-probe: measuring failed: the pattern kernel's request count is off\n")
    sys.exit(1)
if "--random" in args:
    seed, first, n = value("--seed", "1"), int(value("--first", "0")), int(value("--random"))
    rows = [("random:" + seed, i, "draw %s:%d" % (seed, i)) for i in range(first, first + n)]
else:
    every, offset = int(value("--every", "1")), int(value("--offset", "0"))
    rows = [("structured", i, "16 B lanes %d,%d,%d three groups" % (i % 32, i % 31, i % 29))
            for i in range(offset, 13048, every)]
differ = set(os.environ.get("FAKE_PROBE_DIFFER", "").split(","))
measured = mode not in ("nogpu", "refused")
device = ("none (model only): no usable GPU: no CUDA device found" if mode == "nogpu"
          else "NVIDIA Test GPU 24GB (sm_89, 58 SMs)")
note = {"nogpu": "counter columns empty: no usable GPU: no CUDA device found",
        "refused": "counter columns empty: counters refused: ERR_NVGPUCTRPERM (the admin has "
                   "not allowed them)"}.get(mode, "")
out = []
wrong = 0
for s, i, name in rows:
    model = 1 + i % 3
    counters = model + (1 if s.split(":")[0] + ":" + str(i) in differ else 0)
    wrong += counters != model
    read = ("%.2f" % counters, "%.2f" % counters, "%.2f" % (counters - 1)) if measured else ("", "", "")
    offsets = " ".join(str(16 * ((l + i) % 32)) for l in range(32))
    out.append(",".join([s, str(i), "load", "16", "ffffffff", offsets, str(model), "1", *read,
                         '"%s"' % name]))
head = ["# device: " + device, "# date: 2026-11-27", "# command: bank-probe " + " ".join(
    a for a in args if a not in ("--output", "--append", value("--output"))),
        *(["# note: " + note] if note else []),
        "set,index,op,width,mask,offsets,model_wavefronts,model_ideal,counter_wavefronts,"
        "l1tex_wavefronts,bank_conflicts,name"]
with open(value("--output"), "a" if "--append" in args else "w") as f:
    f.write("\n".join(([] if "--append" in args else head) + out) + "\n")
sys.stderr.write("bank-probe: %d patterns, %d measured, %d differ from the model%s\n" % (
    len(rows), len(rows) if measured else 0, wrong, " (%s)" % note if note else ""))
sys.exit(3 if "--check" in args and wrong else 0)
'''

#: nvidia-smi's two queries the self-check makes (name,uuid through course.model.machine;
#: driver_version). FAKE_SMI: 'NAME,DRIVER', or 'fail' (no driver).
FAKE_SMI = r'''#!{python}
import os, sys
spec = os.environ.get("FAKE_SMI", "NVIDIA Test GPU 24GB,550.54.15")
if spec == "fail":
    print("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")
    sys.exit(9)
name, driver = spec.split(",")
query = next(a for a in sys.argv[1:] if a.startswith("--query-gpu="))[len("--query-gpu="):]
fields = {"name": name, "uuid": "GPU-00000000-1111-2222-3333-444444444444",
          "driver_version": driver}
print(", ".join(fields[q] for q in query.split(",")))
'''

KEYS = ("gpu", "arch", "driver", "course", "date", "seed", "patterns", "disagreements",
        "verified", "csv", "first_disagreements", "seconds")


class SelfCheck(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        smi = self.bin / "nvidia-smi"
        smi.write_text(FAKE_SMI.replace("{python}", sys.executable))
        smi.chmod(0o755)
        self.source = make_course(self.tmp / "course")
        (self.source / "common" / "include" / "kit").mkdir(parents=True, exist_ok=True)
        self.model = self.source / "common" / "include" / "kit" / "bank_model.hpp"
        self.model.write_text("// the bank model\n")
        self.build = make_build(self.tmp / "build", self.source)
        probe = self.build / "bin" / "bank-probe"
        probe.parent.mkdir()
        probe.write_text(FAKE_PROBE.replace("{python}", sys.executable))
        probe.chmod(0o755)
        self.record = self.build / "self-check" / "rules.json"
        for key in ("FAKE_PROBE", "FAKE_PROBE_DIFFER", "FAKE_SMI", "CUDA_VISIBLE_DEVICES",
                    "KIT_FORCE_NO_GPU", "KIT_COUNTERS_REFUSE"):
            self.env.pop(key, None)
        self.base_env = dict(self.env)

    def check(self, *args: str, **env: str):
        """Runs the self-check on the build, with the stand-ins' settings of this call only."""
        self.env = {**self.base_env, **env}
        if self.log.is_file():
            self.log.unlink()
        return self.run_tool("course.grading.self_check", "--build-dir", self.build, *args)

    def probe_calls(self):
        return [c for c in self.calls() if c.startswith("bank-probe ")]

    def read_record(self) -> dict:
        return json.loads(self.record.read_text())

    def table(self, path: Path):
        lines = path.read_text().splitlines()
        return ([line for line in lines if line.startswith("#")],
                list(csv.DictReader(line for line in lines if not line.startswith("#"))))

    # --------------------------------------------------------------------------------------

    def test_verified(self):
        p = self.check("--seed", "12", "--patterns", "4500")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(p.stderr, "")
        record = self.read_record()
        for key in KEYS:
            self.assertIn(key, record)
        # 12 modulo 7: the structured patterns 5, 12, 19, ... (1864 of 13,048).
        structured = len(range(5, 13048, 7))
        self.assertEqual(record["gpu"], "NVIDIA Test GPU 24GB")
        self.assertEqual(record["arch"], "sm_89")
        self.assertEqual(record["driver"], "550.54.15")
        self.assertRegex(record["course"], r"^kit-[0-9a-f]{16}$")
        self.assertRegex(record["date"], r"^\d{4}-\d\d-\d\d$")
        self.assertEqual(record["seed"], 12)
        self.assertEqual(record["patterns"], 4500 + structured)
        self.assertEqual(record["random"], 4500)
        self.assertEqual(record["structured"], {"every": 7, "offset": 5, "count": structured})
        self.assertEqual(record["disagreements"], 0)
        self.assertIs(record["verified"], True)
        self.assertEqual(record["status"], "verified")
        self.assertEqual(record["first_disagreements"], [])
        self.assertIsInstance(record["seconds"], float)
        self.assertEqual(Path(record["csv"]), (self.build / "self-check" / "rules.csv").resolve())
        self.assertTrue(self_check.verified_on(record, "NVIDIA Test GPU 24GB", "sm_89"))
        self.assertFalse(self_check.verified_on(record, "NVIDIA Test GPU 24GB", "sm_90"))
        self.assertFalse(self_check.verified_on(record, "NVIDIA Other GPU", "sm_89"))
        # The draws in runs of 2000, then the structured sample, appended to one table.
        calls = self.probe_calls()
        self.assertEqual(len(calls), 4)
        for call, first, count in zip(calls, (0, 2000, 4000), (2000, 2000, 500)):
            self.assertIn(f"--random {count} --seed 12 --first {first} ", call)
            self.assertIn("--check", call)
        self.assertNotIn("--append", calls[0])
        self.assertIn("--structured --every 7 --offset 5 ", calls[3])
        self.assertTrue(all("--append" in c for c in calls[1:]))
        comments, rows = self.table(Path(record["csv"]))
        self.assertEqual(len(rows), record["patterns"])
        self.assertEqual(comments[0], "# device: NVIDIA Test GPU 24GB (sm_89, 58 SMs)")
        self.assertTrue(any("draws 0-4499 of seed 12" in c for c in comments), comments)
        self.assertFalse((self.build / "self-check" / "rules-differ.csv").exists())
        self.assertIn("seed 12", p.stdout)
        self.assertIn("4/4:", p.stdout)
        self.assertIn(f"rules verified on NVIDIA Test GPU 24GB (sm_89): {record['patterns']} "
                      f"patterns", p.stdout)

    def test_a_fresh_seed_each_run_printed_and_kept(self):
        p = self.check("--patterns", "30")
        self.assertEqual(p.returncode, 0, p.stderr)
        seed = self.read_record()["seed"]
        self.assertIn(f"seed {seed},", p.stdout)
        self.assertIn(f"--seed {seed} --patterns 30 --force", p.stdout)
        p = self.check("--patterns", "30", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotEqual(self.read_record()["seed"], seed)

    def test_disagreement(self):
        # Seed 7: the structured sample is 0, 7, 14, ...
        p = self.check("--seed", "7", "--patterns", "40",
                       FAKE_PROBE_DIFFER="random:3,structured:14,structured:15")
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        record = self.read_record()
        self.assertIs(record["verified"], False)
        self.assertEqual(record["status"], "disagreement")
        self.assertEqual(record["disagreements"], 2)  # structured 15 is not in the sample
        self.assertIn("2 of", record["reason"])
        first = record["first_disagreements"]
        self.assertEqual([(d["pattern"]["set"], d["pattern"]["index"]) for d in first],
                         [("random:7", 3), ("structured", 14)])
        self.assertEqual((first[0]["model"], first[0]["counters"]), (1, 2.0))
        self.assertEqual((first[1]["model"], first[1]["counters"]), (3, 4.0))
        self.assertEqual(first[0]["pattern"]["name"], "draw 7:3")
        self.assertEqual(len(first[0]["pattern"]["offsets"].split()), 32)
        # Each pattern printed with the model's and the counters' numbers, and what to do.
        self.assertIn("2 of", p.stdout)
        self.assertIn("draw 7:3 (random:7 #3): load, 16 B, mask ffffffff: model 1 wavefronts, "
                      "counters 2.00", p.stdout)
        self.assertIn("(structured #14): load, 16 B, mask ffffffff: model 3 wavefronts, "
                      "counters 4.00", p.stdout)
        text = " ".join(p.stdout.split())
        differ = self.build.resolve() / "self-check" / "rules-differ.csv"
        self.assertIn("maintainers", text)
        self.assertIn(f"--patterns {differ} --check", text)
        self.assertIn(str(self.record), text)
        self.assertIn(record["csv"], text)
        self.assertIn("NVIDIA Test GPU 24GB, sm_89, driver 550.54.15", text)
        # The patterns that differ, alone, in a table bank-probe reads back (--patterns).
        comments, rows = self.table(differ)
        self.assertTrue(comments[0].startswith("# device: NVIDIA Test GPU 24GB"))
        self.assertEqual([(r["set"], r["index"]) for r in rows], [("random:7", "3"),
                                                                  ("structured", "14")])
        self.assertEqual(record["differ_csv"], str(differ))
        # Reused, a disagreement says so again, with the same exit status.
        p = self.check("--seed", "7", "--patterns", "40")
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        self.assertEqual(self.probe_calls(), [])
        self.assertIn("reusing", p.stdout)
        self.assertIn("counters 4.00", p.stdout)

    def test_the_record_is_reused_for_the_same_gpu_driver_and_course(self):
        self.assertEqual(self.check("--patterns", "30").returncode, 0)
        seed = self.read_record()["seed"]
        p = self.check("--patterns", "30")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.probe_calls(), [])
        self.assertIn(f"reusing {self.record}", p.stdout)
        self.assertIn("--force measures again", p.stdout)
        self.assertIn("rules verified on NVIDIA Test GPU 24GB (sm_89)", p.stdout)
        self.assertEqual(self.read_record()["seed"], seed)
        # The seed it has: reused; another seed, another number of draws: measured.
        self.assertEqual(self.check("--patterns", "30", "--seed", str(seed)).returncode, 0)
        self.assertEqual(self.probe_calls(), [])
        self.assertEqual(self.check("--patterns", "31", "--seed", str(seed)).returncode, 0)
        self.assertNotEqual(self.probe_calls(), [])
        self.assertEqual(self.check("--patterns", "31", "--seed", str(seed + 1)).returncode, 0)
        self.assertNotEqual(self.probe_calls(), [])
        # Another course (the kit's sources changed), another driver, the environment asking
        # for no GPU: measured again.
        self.assertEqual(self.check("--patterns", "31").returncode, 0)
        self.assertEqual(self.probe_calls(), [])
        course = self.read_record()["course"]
        self.model.write_text("// the bank model, a rule changed\n")
        self.assertEqual(self.check("--patterns", "31").returncode, 0)
        self.assertNotEqual(self.probe_calls(), [])
        self.assertNotEqual(self.read_record()["course"], course)
        newer = "NVIDIA Test GPU 24GB,560.1"
        self.assertEqual(self.check("--patterns", "31", FAKE_SMI=newer).returncode, 0)
        self.assertNotEqual(self.probe_calls(), [])
        self.assertEqual(self.read_record()["driver"], "560.1")
        self.assertEqual(self.check("--patterns", "31", FAKE_SMI=newer).returncode, 0)
        self.assertEqual(self.probe_calls(), [])
        p = self.check("--patterns", "31", FAKE_SMI=newer, KIT_FORCE_NO_GPU="a test",
                       FAKE_PROBE="nogpu")
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertEqual(len(self.probe_calls()), 1)

    def test_force(self):
        self.assertEqual(self.check("--patterns", "30", "--seed", "5").returncode, 0)
        p = self.check("--patterns", "30", "--seed", "5", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.probe_calls()), 2)
        self.assertNotIn("reusing", p.stdout)
        # A forced run that finds patterns differing replaces a verified record.
        p = self.check("--patterns", "30", "--seed", "5", "--force", FAKE_PROBE_DIFFER="random:0")
        self.assertEqual(p.returncode, 3, p.stdout)
        self.assertIs(self.read_record()["verified"], False)

    def test_no_gpu(self):
        p = self.check("--patterns", "30", FAKE_SMI="fail", FAKE_PROBE="nogpu")
        self.assertOneLineError(p, 1, "cannot check the bank model here: no usable GPU: no CUDA "
                                      "device found")
        self.assertIn("says verified false", p.stderr)
        record = self.read_record()
        self.assertIs(record["verified"], False)
        self.assertEqual(record["status"], "not measured")
        self.assertEqual(record["reason"], "no usable GPU: no CUDA device found")
        self.assertEqual((record["gpu"], record["arch"], record["driver"]), ("", "", ""))
        self.assertEqual(record["patterns"], 0)
        # It stops at the first run; a record that could not measure is never reused.
        self.assertEqual(len(self.probe_calls()), 1)
        p = self.check("--patterns", "30", FAKE_SMI="fail", FAKE_PROBE="nogpu")
        self.assertEqual(len(self.probe_calls()), 1)
        # Once the GPU is there, it measures.
        p = self.check("--patterns", "30")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIs(self.read_record()["verified"], True)

    def test_counters_refused(self):
        p = self.check("--patterns", "30", FAKE_PROBE="refused")
        self.assertOneLineError(p, 1, "counters refused: ERR_NVGPUCTRPERM")
        record = self.read_record()
        self.assertIs(record["verified"], False)
        self.assertEqual((record["gpu"], record["arch"]), ("NVIDIA Test GPU 24GB", "sm_89"))
        self.assertTrue(record["reason"].startswith("counters refused"))
        self.assertFalse(self_check.verified_on(record, "NVIDIA Test GPU 24GB", "sm_89"))

    def test_a_bank_probe_that_cannot_run(self):
        p = self.check("--patterns", "30", FAKE_PROBE="old")
        self.assertOneLineError(p, 1, "does not take the self-check's arguments")
        self.assertIn("--target bank-probe", p.stderr)
        p = self.check("--patterns", "30", "--force", FAKE_PROBE="crash")
        self.assertOneLineError(p, 1, "failed (exit status 1): bank-probe: measuring failed")
        self.assertIs(self.read_record()["verified"], False)
        (self.build / "bin" / "bank-probe").unlink()
        p = self.check("--patterns", "30", "--force")
        self.assertOneLineError(p, 1, "bank-probe: build it first (cmake --build")

    def test_bad_usage(self):
        def usage(args, words):
            with self.subTest(args=args):
                p = self.run_tool("course.grading.self_check", *args)
                self.assertOneLineError(p, 2, words)
                self.assertEqual(self.probe_calls(), [])
        usage([], "--build-dir")
        usage(["--build-dir", self.tmp / "nowhere"], "no folder")
        usage(["--build-dir", self.build, "--patterns", "0"], "out of range")
        usage(["--build-dir", self.build, "--patterns", "many"], "not a whole number")
        usage(["--build-dir", self.build, "--seed", "-3"], "--seed")
        usage(["--build-dir", self.build, "--structured-every", "x"], "not a whole number")
        usage(["--build-dir", self.build, "--frobnicate"], "unrecognized arguments")
        self.assertFalse(self.record.exists())

    def test_no_structured_sample(self):
        p = self.check("--patterns", "30", "--structured-every", "0", "--seed", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(self.probe_calls()), 1)
        self.assertEqual(self.read_record()["patterns"], 30)

    # --------------------------------------------------------------------------------------

    def test_the_commands_that_run_it(self):
        self.assertEqual(COMMANDS["self-check"][0], "course.grading.self_check")
        p = self.run_tool("course.admin", "self-check", "--help")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--build-dir", p.stdout)
        self.assertIn("--force", p.stdout)
        listing = self.run_tool("course.student.main", "--help")
        self.assertIn("self-check", listing.stdout)
        # The student's command: the student preset's folder (here --build-dir), the record
        # under it.
        p = self.run_tool("course.student.main", "--source-dir", self.source, "self-check",
                          "--build-dir", self.build, "--seed", "4")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(self.read_record()["seed"], 4)
        self.assertEqual(self.read_record()["random"], self_check.DEFAULT_DRAWS)
        p = self.run_tool("course.student.main", "self-check", "--build-dir", self.tmp / "none")
        self.assertOneLineError(p, 1, "no build folder")

    def test_course_version_is_the_kits_sources(self):
        first = self_check.course_version(self.source)
        self.assertEqual(self_check.course_version(self.source), first)
        (self.source / "lessons" / "01_no_conflict" / "exercise.hpp").write_text("// mine\n")
        self.assertEqual(self_check.course_version(self.source), first)
        self.model.write_text("// changed\n")
        self.assertNotEqual(self_check.course_version(self.source), first)
        self.assertEqual(self_check.course_version(self.tmp / "empty"), "unknown")

    def test_the_plan(self):
        plan = self_check.Plan(draws=6000, seed=10)
        self.assertEqual(plan.offset, 3)
        self.assertEqual(plan.structured, len(range(3, 13048, 7)))
        runs = [args for _, args in plan.runs()]
        self.assertEqual([a[a.index("--first") + 1] for a in runs[:-1]], ["0", "2000", "4000"])
        self.assertEqual(runs[-1], ["--structured", "--every", "7", "--offset", "3"])
        # About two minutes at 70 patterns a second.
        self.assertLess(plan.total / self_check.RATE, 120)
        self.assertGreater(plan.total / self_check.RATE, 100)
        self.assertTrue(re.fullmatch(r"kit-[0-9a-f]{16}",
                                     self_check.course_version(self_check.Path(__file__)
                                                               .resolve().parents[3])))
