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

# The storage tests also run on PostgreSQL: start (or reuse) a loopback server for them. When it
# cannot be had, they are skipped with the reason, and everything else still runs.
eval "$(bash scripts/postgres.sh)"
# The card room's multi-process tests also need Redis: start (or reuse) one the same way.
eval "$(bash scripts/redis.sh)"
# ... behind Debian's nginx, with the configuration in deploy/nginx/.
eval "$(bash scripts/nginx.sh)"
# The web client's browser tests drive Debian's Chromium: install it when missing, the same way.
eval "$(bash scripts/chromium.sh)"
# The systemd units in deploy/ are checked by `systemd-analyze verify` (Debian's systemd package;
# nothing of systemd runs). Chromium usually brings it; when not, install it, or the check skips.
if ! command -v systemd-analyze >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    { DEBIAN_FRONTEND=noninteractive apt-get update -q &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends systemd
    } </dev/null >"${TMPDIR:-/tmp}/scopa-test-systemd.log" 2>&1 ||
        echo "scripts/test.sh: apt-get install systemd failed; the unit checks will skip" >&2
fi

# Run all three checks so one report shows every failure; exit with the first failing status.
# Nothing is masked: pytest's status 5 (no tests collected) fails the run like any other.
status=0
check() {
    local rc=0
    "$@" || rc=$?
    if ((rc != 0)); then
        echo "scripts/test.sh: failed with status $rc: $*" >&2
        ((status != 0)) || status=$rc
    fi
}
check "$venv/bin/ruff" check src tests
check "$venv/bin/mypy" --strict src/scopa
check "$venv/bin/pytest" tests src/scopa README.md --doctest-modules "$@"
# The rules core also ships compiled with mypyc (setup.py): build it and run the core's and the
# bots' tests against the compiled modules, so both forms keep the same behaviour.
check bash scripts/build_compiled.sh
check .venv-compiled/bin/pytest -p no:cacheprovider tests/test_cards.py tests/test_moves.py \
    tests/test_rules.py tests/test_capture.py tests/test_scoring.py tests/test_game.py \
    tests/test_view.py tests/test_round.py tests/test_properties.py tests/test_records.py \
    tests/test_players.py tests/test_cli.py tests/test_master.py tests/test_solver.py "$@"
exit "$status"
