#!/usr/bin/env python3
"""Writes ncdx's version-pin facts table from each release's own metadata (Requires-Dist).

For a fixed list of torch, vLLM, SGLang and verl releases (RELEASES below), read the core
metadata of the release's Linux x86_64 wheel (the file pip installs on the machines ncdx
diagnoses) and keep the Requires-Dist lines that name a package `ncdx compat` judges
(KEEP below). The result is our own facts table, one row per pin:

  src/knowledge/data/compat_pins.tsv   package, version, requires, spec, extra, marker

The metadata is read as PyPI serves it for the wheel (PEP 658 `<wheel URL>.metadata`); a release
without it falls back to the JSON API's `info.requires_dist` for that version. Both are facts
of the upload and never change, so the table changes only when RELEASES or KEEP do.

Usage (Python stdlib only, so /usr/bin/python3 runs it):
  python3 scripts/compat-pins.py > src/knowledge/data/compat_pins.tsv   # regenerate
  python3 scripts/compat-pins.py --check src/knowledge/data/compat_pins.tsv
      exit 0: same rows; 1: the committed table differs (a diff is printed);
      77: the package index cannot be reached (ctest reads 77 as a skip)
  option: --index URL (default $NCDX_PYPI_INDEX, else PyPI's JSON API root)
"""
import argparse
import datetime
import difflib
import io
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile

# Releases whose pins ncdx knows. torch: the PyPI default wheels compat.yaml named before this
# table existed, and the newer ones vLLM/SGLang pin. vllm: every final release from 0.6.3 (the
# oldest verl's docs name) to the newest. sglang: the versions verl pins (==) and the 0.5 line.
# verl: the releases whose setup.py extras name vllm/sglang.
RELEASES = {
    "torch": ["2.1.2", "2.2.2", "2.3.1", "2.4.0", "2.4.1", "2.5.1", "2.6.0", "2.7.0", "2.7.1",
              "2.8.0", "2.9.0", "2.9.1", "2.10.0", "2.11.0", "2.12.0", "2.12.1", "2.13.0",
              "2.14.0", "2.14.1", "2.15.0"],
    "vllm": ["0.6.3", "0.6.3.post1", "0.6.4", "0.6.4.post1", "0.6.5", "0.6.6", "0.6.6.post1",
             "0.7.0", "0.7.1", "0.7.2", "0.7.3", "0.8.0", "0.8.1", "0.8.2", "0.8.3", "0.8.4",
             "0.8.5", "0.8.5.post1", "0.9.0", "0.9.0.1", "0.9.1", "0.9.2", "0.10.0", "0.10.1",
             "0.10.1.1", "0.10.2", "0.11.0", "0.11.1", "0.11.2", "0.12.0", "0.13.0", "0.14.0",
             "0.14.1", "0.15.0", "0.15.1", "0.16.0", "0.17.0", "0.17.1", "0.18.0", "0.18.1",
             "0.19.0", "0.19.1", "0.20.0", "0.20.1", "0.20.2", "0.21.0", "0.22.0", "0.22.1",
             "0.23.0", "0.24.0", "0.25.0", "0.25.1", "0.26.0", "0.27.0", "0.27.1", "0.28.0",
             "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0", "0.34.0"],
    "sglang": ["0.4.4.post3", "0.4.6.post5", "0.4.9.post6", "0.4.10.post2", "0.5.1", "0.5.2",
               "0.5.3", "0.5.4", "0.5.5", "0.5.6", "0.5.7", "0.5.8", "0.5.9", "0.5.10", "0.5.11",
               "0.5.12", "0.5.13", "0.5.14", "0.5.15", "0.5.16", "0.5.17", "0.5.18", "0.5.19",
               "0.5.20", "0.5.21", "0.5.22", "0.5.23"],
    "verl": ["0.3.0.post1", "0.4.0", "0.4.1", "0.5.0", "0.6.0", "0.6.1", "0.7.0", "0.7.1",
             "0.8.0", "0.9.0", "0.9.1"],
}

# The dependencies `ncdx compat` judges (PEP 503 names). Everything else a release requires is
# not ncdx's business.
KEEP = {"torch", "vllm", "sglang", "nvidia-nccl-cu12", "nvidia-nccl-cu13",
        "nvidia-cuda-runtime-cu12", "nvidia-cuda-runtime-cu13", "cuda-toolkit", "flashinfer-python"}

DEFAULT_INDEX = "https://pypi.org/pypi/"
OUT = "src/knowledge/data/compat_pins.tsv"


class Unreachable(Exception):
    pass


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.read()
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise Unreachable(f"{url}: HTTP {e.code}") from e
    except (urllib.error.URLError, OSError) as e:
        raise Unreachable(f"{url}: {e}") from e


class RemoteFile(io.RawIOBase):
    """A wheel read through HTTP range requests: zipfile needs only its central directory and the
    METADATA member, a few MiB of a torch wheel of several hundred."""

    def __init__(self, url, size):
        self.url, self.size, self.pos = url, size, 0

    def seekable(self):
        return True

    def readable(self):
        return True

    def seek(self, off, whence=0):
        self.pos = {0: off, 1: self.pos + off, 2: self.size + off}[whence]
        return self.pos

    def tell(self):
        return self.pos

    def read(self, n=-1):
        end = self.size if n is None or n < 0 else min(self.size, self.pos + n)
        if end <= self.pos:
            return b""
        req = urllib.request.Request(self.url, headers={"Range": f"bytes={self.pos}-{end - 1}"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                if r.status != 206:
                    raise Unreachable(f"{self.url}: no range requests (HTTP {r.status})")
                data = r.read()
        except (urllib.error.URLError, OSError) as e:
            raise Unreachable(f"{self.url}: {e}") from e
        self.pos += len(data)
        return data

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)


def wheel_metadata(url, size):
    """The wheel's *.dist-info/METADATA, where the index serves no PEP 658 file for it."""
    with zipfile.ZipFile(io.BufferedReader(RemoteFile(url, size), buffer_size=1 << 20)) as z:
        names = [n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
        if len(names) != 1:
            sys.exit(f"compat-pins: {url}: expected one *.dist-info/METADATA, found {names}")
        return z.read(names[0])


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def wheel_rank(filename):
    """Lower is better: the Linux x86_64 wheel pip picks on a CPython 3.11/3.12 machine."""
    if not filename.endswith(".whl"):
        return None
    if "none-any" in filename:
        return (2, filename)
    if "x86_64" not in filename or "linux" not in filename:
        return None
    for i, tag in enumerate(("-cp311-", "-cp312-", "-abi3-", "-cp310-")):
        if tag in filename:
            return (0, i, filename)
    return (1, filename)


def requires_of(index, package, version, project):
    files = project["releases"].get(version) or []
    ranked = sorted((wheel_rank(f["filename"]), f) for f in files if wheel_rank(f["filename"]))
    if ranked:
        url = urllib.parse.urljoin(index + f"{package}/json", ranked[0][1]["url"])
        meta = get(url + ".metadata")
        if meta is None:
            meta = wheel_metadata(url, ranked[0][1]["size"])
        text = meta.decode("utf-8", "replace")
        head = text.split("\n\n", 1)[0]  # headers end at the first blank line (the body is the README)
        return [l.split(":", 1)[1].strip() for l in head.splitlines() if l.startswith("Requires-Dist:")]
    doc = get(index + f"{package}/{version}/json")
    if doc is None:
        sys.exit(f"compat-pins: {package} {version}: neither wheel metadata nor a JSON API entry")
    return json.loads(doc)["info"].get("requires_dist") or []


REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*\(?([^;()]*)\)?\s*(?:;(.*))?$")
EXTRA = re.compile(r"""\s*(?:and\s+)?extra\s*==\s*["']([^"']+)["']\s*(?:and\s+)?""")


def parse(line):
    """'torch==2.6.0; extra == "sglang"' -> ('torch', '==2.6.0', 'sglang', '-')."""
    m = REQ.match(line)
    if not m:
        sys.exit(f"compat-pins: cannot read Requires-Dist {line!r}")
    name, _, spec, marker = m.groups()
    parts = sorted(p.strip() for p in spec.replace(" ", "").split(",") if p.strip())
    extra = "-"
    marker = (marker or "").strip()
    e = EXTRA.search(marker)
    if e:
        extra = e.group(1)
        marker = (marker[:e.start()] + " " + marker[e.end():]).strip()
        marker = re.sub(r"^\(\s*(.*?)\s*\)$", r"\1", marker)
    return norm(name), ",".join(parts) or "-", norm(extra) if extra != "-" else "-", re.sub(r"\s+", " ", marker) or "-"


def vkey(v):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.]|(?<=\d)(?=post)|(?<=post)(?=\d)", v) if x]


def rows(index):
    out = set()
    for package, versions in RELEASES.items():
        doc = get(index + f"{package}/json")
        if doc is None:
            sys.exit(f"compat-pins: {package}: not on the index")
        project = json.loads(doc)
        for version in versions:
            for line in requires_of(index, package, version, project):
                name, spec, extra, marker = parse(line)
                if name in KEEP and name != package:
                    out.add((package, version, name, spec, extra, marker))
    return sorted(out, key=lambda r: (r[0], vkey(r[1]), r[2], r[4], r[5], r[3]))


HEADER = """# Version pins from each release's own metadata (Requires-Dist of its Linux x86_64 wheel).
# GENERATED by `python3 scripts/compat-pins.py > src/knowledge/data/compat_pins.tsv`: do not edit;
# change RELEASES/KEEP in the script instead. Read by analyze/compat (ncdx compat).
# Columns: package, version, requires (dependency), spec (comma-joined, "-" = any version),
# extra (the `extra == "..."` marker, "-" = always), marker (the rest of the marker, "-" = none).
"""


def render(table, when):
    lines = [HEADER.rstrip("\n"), f"# generated: {when}",
             "package\tversion\trequires\tspec\textra\tmarker"]
    lines += ["\t".join(r) for r in table]
    return "\n".join(lines) + "\n"


def body(text):
    return [l for l in text.splitlines() if not l.startswith("#")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", metavar="TSV")
    ap.add_argument("--index", default=os.environ.get("NCDX_PYPI_INDEX", DEFAULT_INDEX))
    a = ap.parse_args()
    index = a.index if a.index.endswith("/") else a.index + "/"
    try:
        table = rows(index)
    except Unreachable as e:
        print(f"compat-pins: package index unreachable ({e})", file=sys.stderr)
        return 77
    text = render(table, datetime.date.today().isoformat())
    if not a.check:
        sys.stdout.write(text)
        return 0
    with open(a.check, encoding="utf-8") as f:
        committed = f.read()
    if body(committed) == body(text):
        print(f"compat-pins: {a.check} matches the metadata ({len(table)} rows)")
        return 0
    sys.stdout.writelines(difflib.unified_diff([l + "\n" for l in body(committed)], [l + "\n" for l in body(text)],
                                               a.check, "metadata now"))
    print(f"compat-pins: {a.check} is stale; regenerate with python3 scripts/compat-pins.py > {OUT}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
