#!/usr/bin/env python3
"""Instructions per query for each shape of zeneca-shapes.json, counted by callgrind.

Each case runs twice through `instant-query --batch` under `valgrind --tool=callgrind`, with
`repeat` 1 and 21; the difference of the two totals over 20 is the cost of one evaluation (store
building, JSON parsing and process start cancel out). Hashing is made deterministic; counts
repeat within ~0.5% from run to run, whatever else the machine is doing. Needs valgrind (`apt-get install valgrind`). Run from the repository root after
`swift build -c release --product instant-query`:

    python3 Benchmarks/Shapes/instructions.py [path/to/instant-query] [name filter]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/instant-query"
only = sys.argv[2] if len(sys.argv) > 2 else None
cases = json.load(open(os.path.join(os.path.dirname(__file__), "zeneca-shapes.json")))
env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")


def total(case, repeat):
    case = dict(case, repeat=repeat)
    with tempfile.TemporaryDirectory() as folder:
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", binary, "--batch"],
            input=json.dumps([case]), capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"callgrind gave no total for {case['name']}:\n{run.stderr[-2000:]}")
    return int(found.group(1))


for case in cases:
    if only and only not in case["name"]:
        continue
    per_query = (total(case, 21) - total(case, 1)) / 20
    print(f"{case['name']:40s} {per_query:12,.0f} instructions/query", flush=True)
