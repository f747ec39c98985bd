#!/usr/bin/env python3
"""`ncdx report` HTML checked in a real browser (headless Chromium from Debian):
the page renders non-blank, its section titles are in the DOM Chromium built, and the page makes
no network request (Chromium's own net log; a control page with one remote image proves the check
sees page requests). Exit 77 (CTest skip) when Chromium is not installed.
Usage: chromium_check.py NCDX SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

# Chromium's own background services (updates, sign-in, time, dictionaries); never the page's.
BROWSER_HOSTS = ("googleapis.com", "google.com", "gvt1.com", "gstatic.com", "googleusercontent.com")
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-default-apps", "--window-size=1400,1600"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)


def page_urls(browser, page, work, tag):
    netlog = os.path.join(work, f"net-{tag}.json")
    shot = os.path.join(work, f"shot-{tag}.png")
    run([browser, *FLAGS, f"--screenshot={shot}", f"--log-net-log={netlog}", "file://" + page])
    urls = set()
    with open(netlog) as f:
        for e in json.load(f).get("events", []):
            url = e.get("params", {}).get("url")
            if url and not url.startswith(("file:", "data:", "chrome:", "about:")):
                host = url.split("/")[2] if "://" in url else url
                if not host.split(":")[0].endswith(BROWSER_HOSTS):
                    urls.add(url)
    return urls, shot


def png_distinct_bytes(path):
    """Number of distinct byte values in the decompressed image data: a blank page has ~1."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def main():
    ncdx, src, work = sys.argv[1:4]
    browser = chromium()
    if not browser:
        print("SKIP: no chromium installed (apt-get install chromium)")
        return 77
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, LC_ALL="C")
    inputs = []
    for name, args in [("doctor-ok", ["doctor", "--root", f"{src}/tests/data/machines/dgx-h100"]),
                       ("doctor-broken", ["doctor", "--root", f"{src}/tests/data/machines/broken"]),
                       ("triage", ["triage", "--example"])]:
        out = run([ncdx, *args, "--json", "--no-timestamps"], env=env)
        path = os.path.join(work, name + ".json")
        open(path, "w").write(out.stdout)
        inputs.append(path)
    outdir = os.path.join(work, "report")
    shutil.rmtree(outdir, ignore_errors=True)
    r = run([ncdx, "report", *inputs, "--output", outdir, "--no-timestamps"], env=env)
    page = os.path.join(outdir, "report.html")
    problems = []
    if r.returncode != 2 or not os.path.exists(page):
        problems.append(f"ncdx report exit {r.returncode} (2 expected: the broken node fails): {r.stderr.strip()}")
        print("\n".join(problems))
        return 1
    html = open(page).read()
    for needle in ("http://", "https://", "<script src", "<link "):
        if needle in html:
            problems.append(f"report.html contains '{needle}': the page must be self-contained")
    dom = run([browser, *FLAGS, "--dump-dom", "file://" + page]).stdout
    for title in ("doctor — ", "triage — ", "network-ib", "SKIP rows", "<details>", "topology.cells"):
        if title not in dom:
            problems.append(f"rendered DOM lacks '{title}'")
    urls, shot = page_urls(browser, page, work, "report")
    if urls:
        problems.append(f"the report page made network requests: {sorted(urls)}")
    distinct = png_distinct_bytes(shot)
    if distinct < 16:
        problems.append(f"screenshot looks blank ({distinct} distinct byte values)")
    # Control: the same check must see a page's own request.
    control = os.path.join(work, "control.html")
    open(control, "w").write('<html><body><img src="http://ncdx-control.invalid/x.png">control</body></html>')
    control_urls, _ = page_urls(browser, control, work, "control")
    if not any("ncdx-control.invalid" in u for u in control_urls):
        problems.append("control page's remote image was not seen in the net log: the request check is blind")
    for p in problems:
        print(p)
    print(f"chromium check: {os.path.basename(browser)}, screenshot {shot} ({distinct} distinct bytes), "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
