# Times commands as a lean process starts them (Python's subprocess, which spawns without
# copying a large parent's memory the way a fork of a big Node.js process does): the same
# commands as bench/harness/run.ts, in turns, the first call of each not counted.
#
#   python3 lean-spawner.py SPEC.json   (SPEC: {"runs", "cwd", "input", "env", "commands": [{"name", "argv"}]})
# Prints {"name": [wall ms, ...], ...} as JSON.
import json
import subprocess
import sys
import time

spec = json.load(open(sys.argv[1]))
data = spec["input"].encode()


def timed(argv):
    started = time.perf_counter()
    done = subprocess.run(argv, input=data, capture_output=True, cwd=spec["cwd"], env=spec["env"])
    took = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        sys.exit(f"{argv} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return took


samples = {command["name"]: [] for command in spec["commands"]}
for command in spec["commands"]:
    timed(command["argv"])
for _ in range(spec["runs"]):
    for command in spec["commands"]:
        samples[command["name"]].append(timed(command["argv"]))
print(json.dumps(samples))
