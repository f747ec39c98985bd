"""JUnit files of `ncdx doctor` and `ncdx triage` against the JUnit schema CI servers read.

The schema is Jenkins xunit-plugin's junit-10.xsd, as pytest ships it in its source distribution
(testing/example_scripts/junit-10.xsd, used there to validate pytest's own --junitxml output): it is
downloaded from PyPI at test time, never committed. The schema leaves hostname and timestamp
optional; ncdx writes both (a CI gathering the files of many nodes needs them), so they are checked
here too, in the zone-less form the stricter Ant schema requires.

Usage: junit_xsd_check.py NCDX WORKDIR     (exit 77: no PyPI or no lxml, with the reason)
"""
import glob
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile

PYTEST_SDIST = "pytest==8.3.4"
XSD_MEMBER = "testing/example_scripts/junit-10.xsd"


def skip(why):
    print("SKIP:", why)
    sys.exit(77)


def schema(work):
    try:
        from lxml import etree
    except ImportError:
        skip("lxml is not installed (scripts/py-oracles.sh installs it into BUILD/venv)")
    cache = os.path.join(work, "sdist")
    os.makedirs(cache, exist_ok=True)
    if not glob.glob(os.path.join(cache, "pytest-*.tar.gz")):
        r = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            PYTEST_SDIST, "-d", cache], capture_output=True, text=True)
        if r.returncode != 0:
            skip("cannot download the pytest sdist from PyPI: " + r.stderr.strip()[-300:])
    sdist = glob.glob(os.path.join(cache, "pytest-*.tar.gz"))[0]
    with tarfile.open(sdist) as t:
        member = next(m for m in t.getmembers() if m.name.endswith(XSD_MEMBER))
        return etree.XMLSchema(etree.parse(t.extractfile(member))), etree


def run(ncdx, *args):
    r = subprocess.run([ncdx, *args], capture_output=True, text=True, timeout=300)
    if r.returncode not in (0, 1, 2):
        sys.exit(f"FAIL: ncdx {' '.join(args)} exited {r.returncode}: {r.stderr[-500:]}")


def check(path, xsd, etree, tool, host, timestamped):
    doc = etree.parse(path)
    if not xsd.validate(doc):
        sys.exit(f"FAIL: {path} is not valid against junit-10.xsd: {xsd.error_log}")
    root = doc.getroot()
    suites = root.findall("testsuite")
    if not suites:
        sys.exit(f"FAIL: {path}: no testsuite")
    total = 0
    for s in suites:
        cases = s.findall("testcase")
        total += len(cases)
        want = {"name": f"{tool}@{host}", "hostname": host, "tests": str(len(cases)),
                "failures": str(sum(1 for c in cases if c.find("failure") is not None)),
                "skipped": str(sum(1 for c in cases if c.find("skipped") is not None)), "errors": "0"}
        for k, v in want.items():
            if s.get(k) != v:
                sys.exit(f"FAIL: {path}: testsuite {k}={s.get(k)!r}, want {v!r}")
        ts = s.get("timestamp")
        if timestamped and not (ts and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", ts)):
            sys.exit(f"FAIL: {path}: timestamp {ts!r} is not a zone-less xs:dateTime")
        if not timestamped and ts is not None:
            sys.exit(f"FAIL: {path}: --no-timestamps run has timestamp {ts!r}")
    if root.get("tests") != str(total):
        sys.exit(f"FAIL: {path}: testsuites tests={root.get('tests')!r}, want {total}")
    print(f"ok {path}: {len(suites)} suite(s), {total} cases")


def main():
    ncdx, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    xsd, etree = schema(work)
    host = socket.gethostname()
    for name, args, tool, stamped in [
        ("doctor", ["doctor", "--quick"], "ncdx.doctor", True),
        ("doctor-nots", ["doctor", "--quick", "--no-timestamps"], "ncdx.doctor", False),
        ("triage", ["triage", "--example", "nccl-525"], "ncdx.triage", True),
    ]:
        out = os.path.join(work, name)
        shutil.rmtree(out, ignore_errors=True)
        run(ncdx, *args, "--output", out)
        check(os.path.join(out, "junit.xml"), xsd, etree, tool, host, stamped)


if __name__ == "__main__":
    main()
