#!/usr/bin/env bash
# Build the rules core compiled with mypyc into its own venv (default .venv-compiled) and
# check that the compiled modules are the ones imported. The engine benchmark's figures for
# the compiled core come from this venv: .venv-compiled/bin/python benchmarks/engine.py
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=${PYTHON:-python3}
venv=${1:-.venv-compiled}
if [[ ! -x $venv/bin/python ]]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet "mypy>=1.10" "setuptools>=68" wheel '.[test]'
# Not editable: the compiled modules go to site-packages, away from the sources.
SCOPA_COMPILE=1 "$venv/bin/python" -m pip install --quiet --no-build-isolation --force-reinstall \
    --no-deps .
# Clean the build tree so a later editable install in .venv does not pick up stale objects.
rm -rf build
"$venv/bin/python" - <<'PY'
import importlib
for name in ("cards", "moves", "errors", "capture", "scoring", "round", "game", "players.simulation"):
    module = importlib.import_module(f"scopa.{name}")
    assert module.__file__ and not module.__file__.endswith(".py"), f"{module.__file__} is not compiled"
print("compiled core:", importlib.import_module("scopa.round").__file__)
PY
