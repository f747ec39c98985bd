#!/usr/bin/env python3
"""Rebuild published_nccl_tests.jsonl (the held-out set of docs/MODEL.md (b)) from local git mirrors.

Each manifest.tsv row names a repository, a pinned commit, a path and a line range; the record's
text is `git show COMMIT:PATH`, lines first..last, unchanged. Any row that cannot be extracted, or
whose text is not an nccl-tests table (or, for format busbw-table:SIDE, a markdown busbw table),
stops the run with one line naming the id and a non-zero exit status: a partial set is never written.

  bench/published_nccl_tests/collect.py -o ../shared/data/published_nccl_tests.jsonl
  bench/published_nccl_tests/collect.py --mirror-root /work/.mirror --check      # extract and verify only
  bench/published_nccl_tests/collect.py --mirror NVIDIA/deepops=/path/to/deepops.git -o /tmp/x.jsonl

A mirror is any git directory (bare or not) holding the pinned commit; by default
MIRROR_ROOT/<owner>+<name>/repo (the layout the session's fetch tool produces), else
MIRROR_ROOT/<owner>+<name>. Python 3 standard library only.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MANIFEST = os.path.join(HERE, "manifest.tsv")
DEFAULT_MIRRORS = os.environ.get("NCDX_MIRRORS", "/work/.mirror")
COLUMNS = ["id", "repo", "commit", "path", "first_line", "last_line", "format", "test", "nccl_version", "env_vars",
           "verdict_label", "verdict_evidence", "hardware_summary"]

# A data row of nccl-tests' table: size count type redop [root] then time algbw busbw #wrong twice.
# Launchers may prefix each line ("0: " from srun --label, "[1,0]<stdout>:" from mpirun --tag-output).
PREFIX = re.compile(r"^\s*(?:\[\d+,\d+\]<std(?:out|err)>:|\d+:(?=\s))")
TYPES = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16", "fp8_e4m3",
         "fp8_e5m2"}
BUSBW_ROW = re.compile(r"^\s*\|\s*(\d+(?:\.\d+)?)\s*([KMG]?)\s*\|\s*(\d+(?:\.\d+)?)\s*\|")


class Fail(Exception):
    pass


def nccl_tests_rows(text):
    """(size, out-of-place busbw, in-place busbw) of each table row; busbw is None where it is not a number."""
    rows, header = [], False
    for raw in text.splitlines():
        line = PREFIX.sub("", raw, count=1)
        t = line.split()
        if "size" in t and "busbw" in t:
            header = True
        if len(t) < 12 or not (t[0].isdigit() and t[1].isdigit()) or t[2] not in TYPES:
            continue

        def num(s):
            try:
                return float(s)
            except ValueError:
                return None

        rows.append((int(t[0]), num(t[-6]), num(t[-2])))
    return header, rows


def busbw_table_rows(text):
    return [(m.group(1) + m.group(2), float(m.group(3))) for m in map(BUSBW_ROW.match, text.splitlines()) if m]


def git(mirror, *args):
    p = subprocess.run(["git", "--git-dir", mirror] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout


def find_mirror(repo, root, overrides):
    if repo in overrides:
        return overrides[repo]
    base = os.path.join(root, repo.replace("/", "+"))
    for cand in (os.path.join(base, "repo"), base, os.path.join(base, ".git")):
        if os.path.isdir(cand) and git(cand, "rev-parse", "--git-dir")[0] == 0:
            return cand
    raise Fail("no git mirror of %s under %s (fetch it, or pass --mirror %s=DIR)" % (repo, root, repo))


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cells = line.split("\t")
            if cells == COLUMNS:
                continue
            if len(cells) != len(COLUMNS):
                raise Fail("%s:%d: %d columns, expected %d" % (path, n, len(cells), len(COLUMNS)))
            rows.append(dict(zip(COLUMNS, cells)))
    if not rows:
        raise Fail("%s: no rows" % path)
    return rows


def build_record(m, mirror):
    rid, commit, path = m["id"], m["commit"], m["path"]
    first, last = int(m["first_line"]), int(m["last_line"])
    if git(mirror, "cat-file", "-e", commit + "^{commit}")[0] != 0:
        raise Fail("%s: commit %s of %s is not in %s" % (rid, commit, m["repo"], mirror))
    rc, blob = git(mirror, "show", "%s:%s" % (commit, path))
    if rc != 0:
        raise Fail("%s: %s does not exist at %s@%s" % (rid, path, m["repo"], commit))
    lines = blob.decode("utf-8").splitlines()
    if not 1 <= first <= last <= len(lines):
        raise Fail("%s: lines %d-%d are outside %s@%s:%s (%d lines)" % (rid, first, last, m["repo"], commit, path,
                                                                           len(lines)))
    text = "\n".join(lines[first - 1:last]) + "\n"
    source = "%s@%s:%s#L%d-L%d" % (m["repo"], commit, path, first, last)
    rec = {
        "id": rid,
        "source": source,
        "source_url": "https://github.com/%s/blob/%s/%s#L%d-L%d" % (m["repo"], commit, path, first, last),
        "source_kind": "repository file",
        "test": m["test"],
        "hardware_summary": m["hardware_summary"],
        "nccl_version": m["nccl_version"] or None,
        "env_vars": json.loads(m["env_vars"]),
    }
    fmt = m["format"]
    if fmt == "nccl-tests":
        header, rows = nccl_tests_rows(text)
        if not header or not rows:
            raise Fail("%s: %s holds no nccl-tests table (header %s, %d data rows)" % (rid, source, header, len(rows)))
        size, oop, ip = rows[-1]
        rec["output_verbatim"] = text
        rec["parsed"] = {"rows": len(rows), "min_size_bytes": rows[0][0], "max_size_bytes": size,
                         "busbw_at_largest_size_oop_ip": [oop, ip]}
    elif fmt.startswith("busbw-table:") and fmt.split(":", 1)[1] in ("in-place", "out-of-place"):
        rows = busbw_table_rows(text)
        if not rows or "GB/s" not in text:
            raise Fail("%s: %s holds no markdown busbw table" % (rid, source))
        rec["busbw_table_verbatim"] = text
        rec["busbw_side"] = fmt.split(":", 1)[1]
        rec["parsed"] = {"rows": len(rows), "min_size_label": rows[0][0], "max_size_label": rows[-1][0],
                         "busbw_at_largest_size": rows[-1][1]}
    else:
        raise Fail("%s: unknown format %r" % (rid, fmt))
    rec["verdict"] = {"label": m["verdict_label"], "by": "source text" if m["verdict_label"] != "unknown" else "none",
                      "evidence": m["verdict_evidence"]}
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=DEFAULT_MANIFEST)
    ap.add_argument("--mirror-root", default=DEFAULT_MIRRORS, help="default: $NCDX_MIRRORS or /work/.mirror")
    ap.add_argument("--mirror", action="append", default=[], metavar="OWNER/NAME=GITDIR",
                    help="the git directory of one repository (repeatable)")
    ap.add_argument("-o", "--out", default="-", help="jsonl output (default stdout)")
    ap.add_argument("--check", action="store_true", help="extract and verify, write nothing")
    ap.add_argument("--skip-missing", action="store_true",
                    help="exit 77 (skip) when a repository has no mirror at all, instead of failing")
    a = ap.parse_args()
    overrides = {}
    for spec in a.mirror:
        repo, sep, d = spec.partition("=")
        if not sep:
            ap.error("--mirror takes OWNER/NAME=GITDIR")
        overrides[repo] = d
    try:
        manifest = read_manifest(a.manifest)
        mirrors = {}
        for m in manifest:
            if m["repo"] not in mirrors:
                try:
                    mirrors[m["repo"]] = find_mirror(m["repo"], a.mirror_root, overrides)
                except Fail as e:
                    if a.skip_missing:
                        print("skip: %s" % e)
                        return 77
                    raise
        ids = [m["id"] for m in manifest]
        if len(set(ids)) != len(ids):
            raise Fail("manifest ids are not unique")
        recs = [build_record(m, mirrors[m["repo"]]) for m in manifest]
    except Fail as e:
        print("collect.py: %s" % e, file=sys.stderr)
        return 1
    for r in recs:
        p = r["parsed"]
        big = p.get("busbw_at_largest_size_oop_ip", p.get("busbw_at_largest_size"))
        print("%-40s %-16s rows %2d  largest-size busbw %s" % (r["id"], r["test"], p["rows"], big), file=sys.stderr)
    if a.check:
        return 0
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)
    if a.out == "-":
        sys.stdout.write(body)
    else:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(body)
        print("wrote %d records to %s" % (len(recs), a.out), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
