#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the storage tests, started once and reused.
# Installs Debian's postgresql package when it is missing (as root, with scripts/apt.sh), then
# prints one line for scripts/test.sh to eval: `export SCOPA_TEST_POSTGRES=<url>` when the server
# answers, else `export SCOPA_TEST_POSTGRES_MISSING=<reason>` so those tests are skipped saying why.
# Idempotent and safe to run twice at once (flock). Trust auth, loopback only, fsync off: it
# holds nothing but test databases.
set -uo pipefail

port=${SCOPA_TEST_POSTGRES_PORT:-54329}
dir=${TMPDIR:-/tmp}/scopa-test-postgres-$port
log=$dir.log

missing() {
    printf 'export SCOPA_TEST_POSTGRES_MISSING=%q\n' "PostgreSQL not available: $1 (see $log)"
    exit 0
}

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

exec 9>"$dir.lock" || missing "cannot write $dir.lock"
flock 9

bin=$(find_bin)
if [[ -z $bin ]]; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        missing "no PostgreSQL in /usr/lib/postgresql and no root apt-get to install it"
    fi
    echo "scripts/postgres.sh: installing postgresql with apt-get" >&2
    bash "$(dirname "${BASH_SOURCE[0]}")/apt.sh" postgresql </dev/null >"$log" 2>&1 9>&- ||
        missing "apt-get install postgresql failed"
    bin=$(find_bin)
    [[ -n $bin ]] || missing "postgresql installed no server binaries"
fi

# PostgreSQL refuses to run as root: as root, run it as the postgres user the package made.
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || missing "no postgres user to run the server as"
    as_owner=(runuser -u postgres --)
    mkdir -p "$dir" && chown postgres "$dir" && touch "$log" && chown postgres "$log"
else
    mkdir -p "$dir"
fi

if [[ ! -f $dir/PG_VERSION ]]; then
    "${as_owner[@]}" "$bin/initdb" -D "$dir" -U scopa --auth=trust -E UTF8 >>"$log" 2>&1 ||
        missing "initdb failed"
fi
if ! "${as_owner[@]}" "$bin/pg_ctl" -D "$dir" status >/dev/null 2>&1; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir" -l "$log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off" \
        start >/dev/null 2>&1 9>&- || missing "the server did not start"
fi
"$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30 || missing "the server does not answer"
echo "export SCOPA_TEST_POSTGRES=postgresql://scopa@127.0.0.1:$port/postgres"
