#!/usr/bin/env bash
# The whole test suite, from a clean clone or a working copy: set up .venv if needed, then
# ruff, mypy --strict, lint-imports and pytest (tests, the doctests in src/scopa and in
# README.md), and the core's and the bots' tests (tests/core, tests/bots) again against the core
# compiled with mypyc.
# Extra arguments go to pytest, such as: bash scripts/test.sh -x -k cli
# Paths among them narrow both runs to those paths (the compiled run to the ones in tests/core
# and tests/bots, and it is left out when there are none): bash scripts/test.sh tests/core -x
#
# What takes time on a fresh machine overlaps. At once, in the background, scripts/apt.sh
# installs the Debian packages the services need (one apt-get for all of them), and
# scripts/build_compiled.sh builds the compiled venv, whose tests then run, while pip installs
# .venv. The services start once apt-get and .venv are done; ruff and mypy run; pytest runs
# last, in two processes, once the compiled run is over. A line at the end gives each phase's time.
# Each pytest prints its 25 slowest steps (--durations=25): where the time went, on every run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=${PYTHON:-python3}
venv=.venv
compiled=.venv-compiled
logs=$(mktemp -d "${TMPDIR:-/tmp}/scopa-test.XXXXXX")

# Split the arguments: a path (it exists, before any ::node id) narrows the runs; anything else,
# and the value of an option that takes one, goes to both runs as it is.
main_args=()
compiled_args=()
paths=0
compiled_paths=0
previous=
for arg in "$@"; do
    if [[ $arg != -* && -e ${arg%%::*} &&
        ! $previous =~ ^(-[cpkmoW]|--(deselect|ignore|ignore-glob|rootdir|basetemp|confcutdir|junitxml|junit-xml|override-ini))$ ]]; then
        paths=1
        main_args+=("$arg")
        relative=${arg#"$PWD"/}
        case ${relative#./} in
            tests/core | tests/core/* | tests/bots | tests/bots/*)
                compiled_args+=("$arg")
                compiled_paths=1
                ;;
        esac
    else
        main_args+=("$arg")
        compiled_args+=("$arg")
    fi
    previous=$arg
done
if ((paths == 0)); then
    main_args=(tests src/scopa README.md "${main_args[@]}")
    compiled_args=(tests/core tests/bots "${compiled_args[@]}")
fi
run_compiled=1
((paths == 0 || compiled_paths == 1)) || run_compiled=0

# Wall times of the phases, printed at the end (issue 20 asks for the whole run's).
times=()
phase_start=$SECONDS
phase() {
    times+=("$1 $((SECONDS - phase_start)) s")
    phase_start=$SECONDS
}

# The background jobs. apt-get is never interrupted (dpkg must not be left half done): on the
# way out this waits for it. The compiled run has its own process group, ended on the way out
# if it is still running (after a failed pip install, or ^C).
apt_pid=
lane_pid=
# shellcheck disable=SC2317 # (run by the EXIT trap)
finish() {
    if [[ -n $lane_pid ]]; then
        kill -TERM -- "-$lane_pid" 2>/dev/null || true
    fi
    if [[ -n $apt_pid ]] && kill -0 "$apt_pid" 2>/dev/null; then
        echo "scripts/test.sh: waiting for apt-get to finish" >&2
    fi
    wait || true
    rm -rf "$logs"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

apt_log=${TMPDIR:-/tmp}/scopa-test-apt.log
bash scripts/apt.sh </dev/null >"$apt_log" 2>"$logs/apt.err" &
apt_pid=$!

# The compiled run: build (or reuse) the compiled venv, then its tests, holding the venv's lock
# shared so another run's build waits for them. Its statuses and output are reported after the
# main pytest, where they always were.
# shellcheck disable=SC2317 # (run by bash -c, below)
compiled_lane() {
    local rc=0
    bash scripts/build_compiled.sh "$compiled" || rc=$?
    echo "$rc" >"$logs/build.rc"
    echo "compiled build $SECONDS s" >"$logs/lane.times"
    ((rc == 0)) || return 0
    rc=0
    flock -s -o "$compiled/.scopa-lock" "$compiled/bin/pytest" -p no:cacheprovider --durations=25 "$@" ||
        rc=$?
    echo "$rc" >"$logs/compiled.rc"
    echo "then its tests, done at $SECONDS s (in the background)" >>"$logs/lane.times"
}
if ((run_compiled)); then
    export -f compiled_lane
    export logs compiled
    setsid bash -c 'compiled_lane "$@"' compiled_lane "${compiled_args[@]}" \
        </dev/null >"$logs/compiled.log" 2>&1 &
    lane_pid=$!
fi

# Install (again) when the venv is new or pyproject.toml changed since the last install; under
# the venv's lock, so two runs at once do not install into it together.
stamp=$venv/.scopa-test-install
mkdir -p "$venv"
{
    flock 7
    if [[ ! -x $venv/bin/python ]]; then
        "$python" -m venv "$venv"
    fi
    if ! cmp -s pyproject.toml "$stamp"; then
        # --no-compile: pip would write the bytecode of every module of every package (torch's
        # thousands among them); Python writes it for the modules imported, when first imported.
        # From a clean clone this took the install from 159 to 99 s.
        "$venv/bin/python" -m pip install --quiet --no-compile -e '.[test]'
        cp pyproject.toml "$stamp"
    fi
} 7>"$venv/.scopa-lock"
phase ".venv"

# Offline play's runtime for tests/offline (issue 37): the pinned Pyodide from the npm registry,
# its hash checked, and the pure wheel, into .venv/share/scopa/offline. While apt-get goes on;
# once there, a run only checks them (0.3 s). Without it the offline test fails, saying so.
"$venv/bin/python" scripts/pyodide.py ||
    echo "scripts/test.sh: scripts/pyodide.py failed; tests/offline will fail" >&2
phase "then Pyodide"

# The Debian packages, before the services that use them.
wait "$apt_pid" || true
apt_pid=
cat "$logs/apt.err" >&2
phase "then apt-get"

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
# nothing of systemd runs). scripts/apt.sh installs it with the others; when that failed, try it
# alone, or the check skips.
if ! command -v systemd-analyze >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    bash scripts/apt.sh systemd </dev/null >"${TMPDIR:-/tmp}/scopa-test-systemd.log" 2>&1 ||
        echo "scripts/test.sh: apt-get install systemd failed; the unit checks will skip" >&2
fi

# Run every check so one report shows every failure; exit with the first failing status.
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
# The compiled run's statuses, reported as check reports a command's: report FILE COMMAND...
report() {
    local rc=1
    if [[ -f $logs/$1 ]]; then
        rc=$(<"$logs/$1")
    else
        echo "scripts/test.sh: the compiled run ended before it recorded a status" >&2
    fi
    shift
    if ((rc != 0)); then
        echo "scripts/test.sh: failed with status $rc: $*" >&2
        ((status != 0)) || status=$rc
    fi
}
phase "the services"
check "$venv/bin/ruff" check src tests
# mypy's cache lives in the venv: out of the tree, and kept from one run to the next.
check "$venv/bin/mypy" --strict --cache-dir "$venv/.mypy_cache" src/scopa
# The import contracts in pyproject.toml ([tool.importlinter]): the core below everything, the
# room's features independent of each other.
check "$venv/bin/lint-imports" --no-cache
# pytest runs once the compiled run is over, in SCOPA_TEST_WORKERS processes (pytest-xdist, 2 by
# default: this machine's cores), each test file whole in one of them, so a module's server and
# browser serve its tests alone; the tests marked alone run after them. Most tests wait on
# servers, bots and browsers more than they compute, so two at once take far less wall time
# (docs/benchmarks.md, the test suite).
phase "ruff, mypy and lint-imports"
if [[ -n $lane_pid ]]; then
    wait "$lane_pid" || true
    lane_pid=
fi
phase "then the compiled run"
# Everything but the tests marked alone, in two processes; then those (a kill -9 under a load
# they make themselves), one at a time with the machine to themselves. A run narrowed to some
# paths may find none of one kind: pytest's 5 (nothing collected) is then no failure, unless
# neither run found a test; for the whole suite it always is.
together=0
"$venv/bin/pytest" --numprocesses "${SCOPA_TEST_WORKERS:-2}" --dist loadfile --doctest-modules \
    --durations=25 -m "not alone" "${main_args[@]}" || together=$?
alone=0
"$venv/bin/pytest" --doctest-modules --durations=25 -m alone "${main_args[@]}" || alone=$?
for rc in "$together" "$alone"; do
    if ((rc == 5 && paths == 1 && together + alone != 10)) || ((rc == 0)); then
        continue
    fi
    echo "scripts/test.sh: pytest failed with status $rc (two processes: $together," \
        "then the tests marked alone: $alone)" >&2
    ((status != 0)) || status=$rc
    break
done
phase "pytest"
# The rules core also ships compiled with mypyc (setup.py): its build, and the core's and the
# bots' tests against the compiled modules, so both forms keep the same behaviour.
if ((run_compiled)); then
    echo "== the compiled core (scripts/build_compiled.sh, then $compiled/bin/pytest" \
        "${compiled_args[*]}), run while .venv was installed:"
    cat "$logs/compiled.log"
    report build.rc bash scripts/build_compiled.sh "$compiled"
    if [[ $(cat "$logs/build.rc" 2>/dev/null) == 0 ]]; then
        report compiled.rc "$compiled/bin/pytest" -p no:cacheprovider --durations=25 "${compiled_args[@]}"
    fi
else
    echo "scripts/test.sh: no path in tests/core or tests/bots asked for: the compiled run is left out" >&2
fi
if [[ -f $logs/lane.times ]]; then
    mapfile -t -O "${#times[@]}" times <"$logs/lane.times"
fi
summary=
for entry in "${times[@]}"; do
    summary+="${summary:+; }$entry"
done
echo "scripts/test.sh: wall times: $summary; total $SECONDS s" >&2
exit "$status"
