#!/usr/bin/env python3
"""False-`none` rate and class accuracy of `ncdx triage` on every labelled bank, through the CLI.

  bench/triage_false_none.py NCDX [NCDX_BEFORE] [--only=corpus,holdout]

A false `none` is a case labelled with a failure class whose verdict is `none` ("no failure
found"); a false alarm is a case labelled `none` with any other verdict. Banks: the dev corpus
(tests/data/corpus/failures-dev.jsonl), the incident banks (tests/data/triage/incidents/*.jsonl)
and the line bank (tests/data/triage/linebank.jsonl). With a second binary both are measured in
the same run (before/after). Each case's log is written to a temporary file named for its id.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def banks():
    out = {"corpus": os.path.join(ROOT, "tests/data/corpus/failures-dev.jsonl"),
           "linebank": os.path.join(ROOT, "tests/data/triage/linebank.jsonl")}
    for f in sorted(glob.glob(os.path.join(ROOT, "tests/data/triage/incidents/*.jsonl"))):
        out["incidents/" + os.path.basename(f)[:-6]] = f
    return out


def verdict(ncdx, path):
    p = subprocess.run([ncdx, "triage", "--json", "--no-timestamps", path], capture_output=True, text=True,
                       env=dict(os.environ, LC_ALL="C"))
    try:
        return json.loads(p.stdout)["verdict"]["class"]
    except (ValueError, KeyError):
        return f"error({p.returncode})"


def measure(ncdx, only=None):
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, f in banks().items():
            if only and not any(o in name for o in only):
                continue
            n = right = labelled = false_none = healthy = alarms = 0
            for line in open(f):
                if not line.strip():
                    continue
                c = json.loads(line)
                want = c.get("label_class") or c.get("class")
                # not the id: ids name their labels ("...-rank2-..."), and a file name is a rank source
                path = os.path.join(tmp, "pasted.log")
                with open(path, "w") as lf:
                    lf.write(c["log"])
                got = verdict(ncdx, path)
                n += 1
                right += got == want
                if want == "none":
                    healthy += 1
                    alarms += got != "none"
                else:
                    labelled += 1
                    false_none += got == "none"
            res[name] = dict(cases=n, right=right, failures=labelled, false_none=false_none, healthy=healthy,
                             false_alarm=alarms)
            print(f"# {ncdx} {name}: {res[name]}", file=sys.stderr, flush=True)
    return res


def main():
    bins = [a for a in sys.argv[1:] if not a.startswith("--only=")]
    only = [o for a in sys.argv[1:] if a.startswith("--only=") for o in a[7:].split(",")]
    if not bins:
        sys.exit(__doc__)
    results = [measure(b, only) for b in bins]
    print("| bank | cases | right | false none | false alarm |" + (" before: right | false none | false alarm |" if len(bins) > 1 else ""))
    print("|---|---|---|---|---|" + ("---|---|---|" if len(bins) > 1 else ""))
    tot = [dict(cases=0, right=0, failures=0, false_none=0, healthy=0, false_alarm=0) for _ in bins]
    for name in results[0]:
        cells = []
        for i, r in enumerate(results):
            x = r[name]
            for k in tot[i]:
                tot[i][k] += x[k]
            cells.append(f"{x['right']}/{x['cases']} | {x['false_none']}/{x['failures']} | {x['false_alarm']}/{x['healthy']}")
        print(f"| {name} | {results[0][name]['cases']} | " + " | ".join(cells[:1]) + (" | " + cells[1] if len(cells) > 1 else "") + " |")
    cells = [f"{t['right']}/{t['cases']} | {t['false_none']}/{t['failures']} | {t['false_alarm']}/{t['healthy']}" for t in tot]
    print(f"| all | {tot[0]['cases']} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
