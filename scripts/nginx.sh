#!/usr/bin/env bash
# Debian's nginx for the card room's multi-process test, which runs the processes behind it with
# deploy/nginx/scopa-locations.conf. Installs the package when it is missing (as root, with
# scripts/apt.sh), then prints one line for scripts/test.sh to eval: `export
# SCOPA_TEST_NGINX=<nginx binary>`, else `export SCOPA_TEST_NGINX_MISSING=<reason>` so that test
# is skipped saying why. The test starts its own nginx on a loopback port; the package's own
# service is left alone. Idempotent (flock).
set -uo pipefail

log=${TMPDIR:-/tmp}/scopa-test-nginx.log

missing() {
    printf 'export SCOPA_TEST_NGINX_MISSING=%q\n' "nginx not available: $1 (see $log)"
    exit 0
}

exec 9>"$log.lock" || missing "cannot write $log.lock"
flock 9

nginx=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
if [[ -z $nginx ]]; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        missing "no nginx and no root apt-get to install it"
    fi
    echo "scripts/nginx.sh: installing nginx with apt-get" >&2
    bash "$(dirname "${BASH_SOURCE[0]}")/apt.sh" nginx </dev/null >"$log" 2>&1 9>&- ||
        missing "apt-get install nginx failed"
    nginx=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
    [[ -n $nginx ]] || missing "the nginx package installed no binary"
fi
"$nginx" -v >/dev/null 2>&1 || missing "$nginx does not run"
echo "export SCOPA_TEST_NGINX=$nginx"
