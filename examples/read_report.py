"""Read `check`'s JSON report from a program: the mistakes per player across an archive.

    python examples/read_report.py records/

It runs `getaway-ref check --output-format json` (the report's shape is `getaway-ref schema`)
and counts each seat's mistakes by code, the way a club might before a tournament.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys


def main() -> int:
    paths = sys.argv[1:] or ["records/"]
    run = subprocess.run([sys.executable, "-m", "referee", "check", "--output-format", "json",
                          "--exit-zero", *paths], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(run.stderr, end="", file=sys.stderr)
        return run.returncode
    report = json.loads(run.stdout)
    mistakes: collections.Counter[str] = collections.Counter()
    games = 0
    for file in report["files"]:
        for game in file["games"]:
            games += 1
            for d in game["diagnostics"]:
                if d["severity"] == "mistake":
                    mistakes[d["code"]] += 1
    print(f"{games} games read")
    for code, count in sorted(mistakes.items()):
        print(f"{code}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
