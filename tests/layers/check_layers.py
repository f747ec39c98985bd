#!/usr/bin/env python3
"""The `layers` test: the include graph of src/ obeys the layer order of docs/DEVELOPING.md.

For every layer src/<layer>/ it reads the DEPS its CMakeLists.txt declares (ncdx_layer(...)) and
every `#include "<other>/..."` in its sources and, transitively, in the headers they include (a
layer that includes analyze/doctor/run.h also needs what run.h includes, since dependencies are
linked PRIVATE), and fails when
  - a layer reaches a header of a layer it does not declare (a sideways or upward edge that the
    PRIVATE include roots would also refuse, caught here with the file and line), or
  - a layer declares a dependency that is above it in the order (upward edge), or
  - a layer with sources declares a dependency it never includes (a stale edge).
Usage: check_layers.py SOURCE_DIR
"""
import pathlib
import re
import sys

ORDER = ["core", "knowledge", "vendor", "cluster", "probe", "measure", "model", "analyze", "report", "cli"]
DEPS_RE = re.compile(r"ncdx_layer\(\s*(\w+)(.*?)\)", re.S)
INC_RE = re.compile(r'^\s*#\s*include\s+"(([a-z_]+)/[^"]+)"', re.M)


def declared(cmake_text):
    m = DEPS_RE.search(cmake_text)
    if not m:
        return None, set()
    name, rest = m.group(1), m.group(2)
    deps = set()
    words = rest.split()
    i = 0
    while i < len(words):
        if words[i] == "DEPS":
            i += 1
            while i < len(words) and words[i] not in ("LIBS", "SOURCES"):
                deps.add(words[i])
                i += 1
        else:
            i += 1
    return name, deps


def header_layers(root, header, seen):
    """Layers reached from one header "<layer>/path.h" through its own includes (transitive)."""
    if header in seen:
        return set()
    seen.add(header)
    path = root / header
    if not path.is_file():
        return set()
    reached = set()
    for m in INC_RE.finditer(path.read_text(errors="replace")):
        reached.add(m.group(2))
        reached |= header_layers(root, m.group(1), seen)
    return reached


def main():
    root = pathlib.Path(sys.argv[1]) / "src"
    errors = []
    for layer in ORDER:
        d = root / layer
        if not d.is_dir():
            errors.append(f"src/{layer}: layer folder missing")
            continue
        name, deps = declared((d / "CMakeLists.txt").read_text())
        if name != layer:
            errors.append(f"src/{layer}/CMakeLists.txt: expected ncdx_layer({layer} ...)")
        for dep in sorted(deps):
            if dep not in ORDER:
                errors.append(f"src/{layer}/CMakeLists.txt: unknown layer '{dep}' in DEPS")
            elif ORDER.index(dep) >= ORDER.index(layer):
                errors.append(f"src/{layer}/CMakeLists.txt: DEPS {dep} points up or sideways ({layer} is below {dep})")
        used = set()
        sources = [p for p in sorted(d.rglob("*")) if p.suffix in (".h", ".cc")]
        for p in sources:
            text = p.read_text(errors="replace")
            for m in INC_RE.finditer(text):
                inc, direct = m.group(1), m.group(2)
                reached = {direct} | header_layers(root, inc, set())
                line = text.count("\n", 0, m.start()) + 1
                for other in sorted(reached):
                    if other not in ORDER or other == layer:
                        continue
                    if other == direct:
                        used.add(other)
                    elif other not in used and other in deps:
                        used.add(other)  # needed through a header: declared on purpose
                    if other not in deps:
                        how = "includes" if other == direct else f"reaches (through {inc})"
                        errors.append(f"{p.relative_to(root.parent)}:{line}: {how} {other}/ but {layer} does not declare DEPS {other}")
        has_sources = any(p.suffix == ".cc" for p in sources)
        if has_sources:
            for dep in sorted(deps - used):
                errors.append(f"src/{layer}/CMakeLists.txt: declares DEPS {dep} but includes nothing of it")
    for e in errors:
        print(e)
    print(f"layers: {len(ORDER)} layers checked, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
