#!/usr/bin/env bash
# The whole test suite, from a clean clone or a working copy: set up .venv if needed, then
# ruff, mypy --strict and pytest (tests, the doctests in src/scopa and in README.md).
# Extra arguments go to pytest, such as: bash scripts/test.sh -x -k cli
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=${PYTHON:-python3}
venv=.venv
if [[ ! -x $venv/bin/python ]]; then
    "$python" -m venv "$venv"
fi
# Install (again) when the venv is new or pyproject.toml changed since the last install.
stamp=$venv/.scopa-test-install
if ! cmp -s pyproject.toml "$stamp"; then
    "$venv/bin/python" -m pip install --quiet -e '.[test]'
    cp pyproject.toml "$stamp"
fi

"$venv/bin/ruff" check src tests
"$venv/bin/mypy" --strict src/scopa
# No "|| true" anywhere: any failure, and pytest's status 5 (no tests collected), fails the run.
"$venv/bin/pytest" tests src/scopa README.md --doctest-modules "$@"
