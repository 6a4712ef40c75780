#!/usr/bin/env bash
# Debian's Chromium for the web client's browser tests (Playwright drives it; nothing is
# downloaded by Playwright itself). Installs the package when it is missing (as root, with
# scripts/apt.sh: with fonts-liberation, without Chromium's other recommended packages), then
# prints one line for scripts/test.sh to eval: nothing to export when /usr/bin/chromium runs,
# else `export SCOPA_TEST_CHROMIUM_MISSING=<reason>` so those tests are skipped saying why.
# Idempotent and safe to run twice at once (flock).
set -uo pipefail

log=${TMPDIR:-/tmp}/scopa-test-chromium.log

missing() {
    printf 'export SCOPA_TEST_CHROMIUM_MISSING=%q\n' "Chromium not available: $1 (see $log)"
    exit 0
}

exec 9>"$log.lock" || missing "cannot write $log.lock"
flock 9

if [[ ! -x /usr/bin/chromium ]]; then
    if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null; then
        missing "no /usr/bin/chromium and no root apt-get to install it"
    fi
    echo "scripts/chromium.sh: installing chromium with apt-get" >&2
    bash "$(dirname "${BASH_SOURCE[0]}")/apt.sh" chromium </dev/null >"$log" 2>&1 9>&- ||
        missing "apt-get install chromium failed"
fi
/usr/bin/chromium --headless --no-sandbox --version >/dev/null 2>>"$log" ||
    missing "/usr/bin/chromium does not run"
