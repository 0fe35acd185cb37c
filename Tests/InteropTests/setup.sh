#!/usr/bin/env bash
# Creates .venv-interop at the package root with the official Azure SDKs for Python that the
# InteropTests use as independent readers and writers, and the schema validators that check our
# JUnit and SARIF reports, and prints the variable that enables them:
#
#   Tests/InteropTests/setup.sh
#   export SPEAKEASY_INTEROP_PYTHON="$PWD/.venv-interop/bin/python"
#   swift test --filter InteropTests
#
# Needs python3 with the venv module (Debian: apt-get install python3-venv) and access to PyPI.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv-interop"
requirements="$root/Tests/InteropTests/python/requirements.txt"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
"$venv/bin/python" -c 'import azure.data.tables._deserialize, azure.storage.table._serialization, azure.storage.blob, jsonschema, xmlschema, rfc3986_validator, lxml.etree'
echo "export SPEAKEASY_INTEROP_PYTHON=\"$venv/bin/python\""
