#!/usr/bin/env bash
# The Debian packages the test suite uses, installed when missing: ONE `apt-get update` and ONE
# `apt-get install` for all of them, without recommended packages (none of them is needed: the
# servers run from the tests' own configuration, Chromium runs headless).
#   bash scripts/apt.sh [NAME...]    NAME: postgresql redis-server nginx chromium systemd
# No NAME: every one of them. chromium comes with fonts-liberation (a recommendation of
# Chromium's, kept: the cards' corners are drawn in Arial, which fontconfig maps to Liberation
# Sans, metric-compatible; without it they would be laid out in the wider DejaVu Sans).
# scripts/test.sh runs it in the background at its start, so the downloads and dpkg overlap the
# venvs' pip installs; scripts/postgres.sh, redis.sh, nginx.sh and chromium.sh call it for their
# own package when they run alone (or when the first call failed).
# apt-get's output (both streams) goes to stdout, for callers to send to a log; one line on
# stderr says what was installed, or why not. Exit 0: all present now; 1: apt-get failed;
# 2: missing, but no root apt-get here. Idempotent and safe to run twice at once: a flock
# serializes these scripts' apt-get, and apt-get waits for dpkg's own lock (another apt)
# instead of failing.
set -uo pipefail

lock=${TMPDIR:-/tmp}/scopa-test-apt.lock

present() {
    case $1 in
        postgresql) ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 ;;
        redis-server) command -v redis-server >/dev/null ;;
        nginx) command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] ;;
        chromium) [[ -x /usr/bin/chromium ]] ;;
        systemd) command -v systemd-analyze >/dev/null ;;
        *)
            echo "scripts/apt.sh: unknown package $1" >&2
            exit 1
            ;;
    esac
}

(($#)) || set -- postgresql redis-server nginx chromium systemd

exec 8>"$lock" || {
    echo "scripts/apt.sh: cannot write $lock" >&2
    exit 1
}
flock 8

missing=()
for name in "$@"; do
    present "$name" || missing+=("$name")
done
((${#missing[@]})) || exit 0
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
    echo "scripts/apt.sh: missing ${missing[*]}, and no root apt-get to install them" >&2
    exit 2
fi
packages=("${missing[@]}")
[[ " ${missing[*]} " != *" chromium "* ]] || packages+=(fonts-liberation)

# The lock's descriptor is closed for apt-get: a package's maintainer script may start its
# service (nginx, redis-server), and a daemon holding the lock would block every later run.
apt=(apt-get -q -o DPkg::Lock::Timeout=600)
started=$SECONDS
if DEBIAN_FRONTEND=noninteractive "${apt[@]}" update </dev/null 2>&1 8>&- &&
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${packages[@]}" \
        </dev/null 2>&1 8>&-; then
    echo "scripts/apt.sh: installed ${packages[*]} in $((SECONDS - started)) s" >&2
else
    echo "scripts/apt.sh: apt-get install ${packages[*]} failed" >&2
    exit 1
fi
for name in "${missing[@]}"; do
    present "$name" || {
        echo "scripts/apt.sh: the $name package installed, yet what the tests use is not there" >&2
        exit 1
    }
done
