# Test helpers shared by deploy/tests/run (host) and deploy/tests/vm-checks
# (inside the virtual machine). Sourced.
# shellcheck shell=bash

PASSED=0
FAILED=0
LOG_DIR=${LOG_DIR:-/tmp}

# check NAME CMD...: runs CMD quietly (output kept in LOG_DIR), prints TAP.
# CMD reads its own /dev/null, never the stdin it was given: a stdin shared
# with another lane can be made non-blocking at any moment (ssh does so
# while it runs), and Ansible then refuses to start. So `check NAME CMD <
# FILE` would feed CMD nothing; it fails as a check (use `from FILE CMD`).
check() {
    local name=$1 log rc
    shift
    log=$LOG_DIR/check-$((PASSED + FAILED + 1)).log
    set +e
    if [ -f /dev/stdin ]; then
        echo "check was given a file as stdin, which CMD would never read: use 'from FILE CMD...'" > "$log"
        rc=2
    else
        ( set -e; "$@" ) < /dev/null > "$log" 2>&1
        rc=$?
    fi
    set -e
    if [ "$rc" -eq 0 ]; then
        PASSED=$((PASSED + 1))
        echo "ok - $name"
    else
        FAILED=$((FAILED + 1))
        echo "not ok - $name (exit $rc)"
        sed 's/^/    # /' "$log" | tail -n 25
    fi
}

# from FILE CMD...: runs CMD with FILE as its stdin, inside a check.
from() {
    local file=$1
    shift
    "$@" < "$file"
}

# refute CMD...: fails when CMD succeeds. Use it instead of `! CMD`, which
# set -e ignores unless it is the last command of a function, so a `! grep`
# for a leaked secret in the middle of a check could never fail.
refute() {
    if "$@"; then
        echo "should have failed, but succeeded: $*"
        return 1
    fi
}

# expect_exit CODE CMD...: CMD must exit with CODE.
expect_exit() {
    local want=$1 rc
    shift
    set +e
    "$@"
    rc=$?
    set -e
    if [ "$rc" -ne "$want" ]; then
        echo "expected exit $want, got $rc: $*"
        return 1
    fi
}

# wait_for SECONDS CMD...: polls CMD once a second until it succeeds.
wait_for() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || { echo "timed out after waiting for: $*"; return 1; }
        sleep 1
    done
}

# The tar listing of a bundle has a file ending in NAME.
bundle_has() { tar -tzf "$1" | grep "/$2\$" >/dev/null; }
bundle_cat() { tar -xzOf "$1" --wildcards "*/$2"; }
# bundle_grep BUNDLE PART GREP-ARGS...: greps one part from a file, so an
# early "grep -q" cannot break tar's pipe.
bundle_grep() {
    local part=$LOG_DIR/bundle-part
    tar -xzOf "$1" --wildcards "*/$2" > "$part" || return 1
    shift 2
    grep "$@" "$part"
}
