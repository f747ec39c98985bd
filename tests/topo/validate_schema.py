#!/usr/bin/env python3
"""Validates a JSON document against a JSON Schema (test oracle; python3-jsonschema)."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema)
print("ok")
