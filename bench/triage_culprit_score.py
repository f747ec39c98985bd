#!/usr/bin/env python3
"""Class and culprit score of `ncdx triage` on one incident bank, per record, through the CLI.

  bench/triage_culprit_score.py NCDX tests/data/triage/incidents/holdout4.jsonl

C = class right; U = class right and every rank/host of the record's `culprit` label among the
verdict's culprits (a record without a culprit label: class right is enough). Used for the blind
score of holdout4 (bench/results/holdout4_blind_2026-12-05.txt)."""
import json, os, subprocess, sys, tempfile
ncdx = sys.argv[1]; bank = sys.argv[2]
cls_ok = cul_ok = 0; n = 0
for line in open(bank):
    c = json.loads(line); n += 1
    with tempfile.TemporaryDirectory() as d:
        # not the id: ids name their labels ("...-rank2-..."), and a file name is a rank source
        p = os.path.join(d, "pasted.log"); open(p, "w").write(c["log"])
        out = subprocess.run([ncdx, "triage", "--json", "--no-timestamps", p], capture_output=True, text=True)
    try:
        v = json.loads(out.stdout)["verdict"]
    except Exception:
        v = {"class": f"error({out.returncode})", "id": "", "culprit": {}}
    cul = v.get("culprit") or {}
    want = c.get("culprit") or {}
    ok_c = v["class"] == c["label_class"]
    got_r = set(cul.get("ranks") or []); got_h = set(cul.get("hosts") or [])
    ok_u = ok_c and set(want.get("ranks", [])) <= got_r and set(want.get("hosts", [])) <= got_h
    # a labelled host counts as named when the culprit ranks' host is that host is not checked here
    cls_ok += ok_c; cul_ok += ok_u
    print(f"{'C' if ok_c else '-'}{'U' if ok_u else '-'} {c['id']:48s} want {c['label_class']:16s} got {v['class']:16s} {v.get('id','')}  culprit ranks={sorted(got_r)} hosts={sorted(got_h)} want={want}{' [known]' if c.get('known_miss') else ''}")
print(f"class {cls_ok}/{n}  class+culprit {cul_ok}/{n}")
