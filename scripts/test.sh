#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the linter and the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
            || echo "warning: could not install Debian's chromium; browser tests will fail" >&2
    else
        echo "warning: chromium missing and not root; install Debian's chromium for the browser tests" >&2
    fi
fi
python3 -m pip install -q -e '.[test]'
python3 -m ruff check .
set +e
python3 -m pytest "$@"
rc=$?
set -e
# pytest exits 5 when it collected no test: that is a failure of the suite, not a pass.
if [ "$rc" = 5 ]; then echo "no tests were collected" >&2; exit 1; fi
exit "$rc"
