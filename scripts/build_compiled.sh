#!/usr/bin/env bash
# Build the rules core compiled with mypyc into its own venv (default .venv-compiled) and check
# that the compiled modules are the ones imported. The engine benchmark's figures for the
# compiled core come from this venv: .venv-compiled/bin/python benchmarks/engine.py
#
# The venv is lean: the compiled wheel with its own dependency (rich) and the extras in
# SCOPA_COMPILED_EXTRAS (default learn,plot), plus pytest and hypothesis: what tests/core and
# tests/bots need, which scripts/test.sh runs here against the compiled modules. Two of those
# tests use an extra: the learned level's refusal in tests/core/test_cli.py (learn: numpy) and
# the tournament's --plot in tests/core/test_tournament.py (plot: matplotlib). Nothing else of
# the test extra (torch, OpenSpiel, Playwright, the card room) is installed here.
# benchmarks/env.py wants the rl extra too: SCOPA_COMPILED_EXTRAS=learn,plot,rl.
#
# The wheel is built from a copy of the sources in a temporary directory, so that this can run
# while scripts/test.sh installs .venv from the same tree (both would write build/ and
# src/*.egg-info). When nothing it is built from has changed since the last build (the sources,
# setup.py, pyproject.toml, the extras, the interpreter), the venv is kept as it is. Idempotent
# and safe to run twice at once (flock on the venv; scripts/test.sh holds it shared while it
# tests, so a build never replaces the modules under a running test).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=${PYTHON:-python3}
venv=${1:-.venv-compiled}
extras=${SCOPA_COMPILED_EXTRAS-learn,plot}
# The test tools, as the test extra in pyproject.toml asks for them.
tools=("pytest>=8" "hypothesis>=6" "pytest-timeout>=2.3")
build_tools=("mypy>=1.10" "setuptools>=68" wheel)

mkdir -p "$venv"
exec 9>"$venv/.scopa-lock"
flock 9
if [[ ! -x $venv/bin/python ]]; then
    "$python" -m venv "$venv"
fi

stamp=$venv/.scopa-compiled
want=$(
    {
        echo "$extras ${tools[*]} ${build_tools[*]}"
        "$venv/bin/python" -VV
        find src setup.py pyproject.toml -type f ! -path '*/__pycache__/*' \
            ! -path '*.egg-info/*' ! -name '*.so' -print0 | sort -z | xargs -0 sha256sum
    } | sha256sum
)

# The modules setup.py compiles (its CORE list), each imported from a compiled file.
check_compiled() {
    "$venv/bin/python" - <<'PY'
import ast
import importlib
import pathlib

tree = ast.parse(pathlib.Path("setup.py").read_text())
core = next(
    ast.literal_eval(node.value)
    for node in tree.body
    if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "CORE" for t in node.targets)
)
for name in core:
    module = importlib.import_module("scopa." + name.replace("/", "."))
    assert module.__file__ and not module.__file__.endswith(".py"), f"{module.__file__} is not compiled"
print("compiled core:", importlib.import_module("scopa.round").__file__)
PY
}

if [[ -f $stamp && $(<"$stamp") == "$want" ]] && check_compiled 2>/dev/null; then
    echo "scripts/build_compiled.sh: $venv is up to date with the sources"
    exit 0
fi
rm -f "$stamp"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scopa-compiled.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -c --exclude=__pycache__ --exclude='*.egg-info' --exclude='*.so' \
    setup.py pyproject.toml README.md src | tar -x -C "$tmp"

"$venv/bin/python" -m pip install --quiet "${build_tools[@]}" "${tools[@]}"
# Not editable: the compiled modules go to site-packages, away from the sources.
SCOPA_COMPILE=1 "$venv/bin/python" -m pip wheel --quiet --no-build-isolation --no-deps \
    --wheel-dir "$tmp/dist" "$tmp"
wheel=$(echo "$tmp"/dist/scopa-*.whl)
"$venv/bin/python" -m pip install --quiet "$wheel${extras:+[$extras]}"
# The same version may be installed already, from older sources: replace it.
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
check_compiled
echo "$want" >"$stamp"
