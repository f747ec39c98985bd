"""Validates JSON outputs of `ncdx audit` against docs/schema/audit.schema.json (jsonschema from
build/venv; exit 77 = skipped when it is not installed)."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: jsonschema not installed in the oracle venv; run scripts/py-oracles.sh")
    sys.exit(77)

schema = json.load(open(sys.argv[1], encoding="utf-8"))
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path, encoding="utf-8"))
    doc.setdefault("context", {}).setdefault("tool", "ncdx")  # goldens drop machine-specific context keys
    try:
        jsonschema.validate(doc, schema)
        print(f"ok {path}")
    except jsonschema.ValidationError as e:
        bad = 1
        print(f"INVALID {path}: {e.message} at {list(e.absolute_path)}")
sys.exit(bad)
