#!/usr/bin/env bash
# A throwaway Redis server on loopback for the card room's multi-process tests, started once and
# reused. Installs Debian's redis-server package when it is missing (as root, with scripts/apt.sh),
# then prints one line for scripts/test.sh to eval: `export SCOPA_TEST_REDIS=<url>` when the server
# answers, else `export SCOPA_TEST_REDIS_MISSING=<reason>` so those tests are skipped saying why.
# Idempotent and safe to run twice at once (flock). Loopback only, no persistence: it holds
# nothing but test data.
set -uo pipefail

port=${SCOPA_TEST_REDIS_PORT:-63799}
dir=${TMPDIR:-/tmp}/scopa-test-redis-$port
log=$dir.log

missing() {
    printf 'export SCOPA_TEST_REDIS_MISSING=%q\n' "Redis not available: $1 (see $log)"
    exit 0
}

exec 9>"$dir.lock" || missing "cannot write $dir.lock"
flock 9

if ! command -v redis-server >/dev/null; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        missing "no redis-server and no root apt-get to install it"
    fi
    echo "scripts/redis.sh: installing redis-server with apt-get" >&2
    bash "$(dirname "${BASH_SOURCE[0]}")/apt.sh" redis-server </dev/null >"$log" 2>&1 9>&- ||
        missing "apt-get install redis-server failed"
    command -v redis-server >/dev/null || missing "redis-server installed no server binary"
fi

mkdir -p "$dir"
if ! redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then
    # The package's own service (port 6379) is left alone: this one is the tests' own.
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
        --daemonize yes --logfile "$log" --pidfile "$dir/redis.pid" 9>&- >>"$log" 2>&1 ||
        missing "the server did not start"
fi
for _ in $(seq 50); do
    if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
        echo "export SCOPA_TEST_REDIS=redis://127.0.0.1:$port/0"
        exit 0
    fi
    sleep 0.1
done
missing "the server does not answer"
