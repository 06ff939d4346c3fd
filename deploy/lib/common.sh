# Shared by the deploy/ scripts. Sourced, not executed.
#
# Every script works on a root directory ($ROOT, "/" on a device), so tests
# and image builders can point it at a mounted SD card or a debootstrap tree
# with --root DIR. Commands that must run "on the terminal" (teller itself,
# useradd, systemd-creds) run through chroot when $ROOT is not "/".

# shellcheck shell=bash
# shellcheck disable=SC2034  # the names below are used by the scripts that source this

ROOT=/
PROG=${PROG:-$(basename "$0")}
DEPLOY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO_DIR=$(cd "$DEPLOY_DIR/.." && pwd)

# Where the scripts put things on the terminal.
TELLER_LIB=/usr/local/lib/teller          # releases/<version>, current, previous
TELLER_BIN=/usr/local/bin/teller          # -> ../lib/teller/current/teller
TELLER_ETC=/etc/teller
TELLER_CONF=/etc/teller/teller.conf
TELLER_SECRET=/etc/teller/terminal-secret
TELLER_SECRET_CRED=/etc/teller/terminal-secret.cred
TELLER_UNIT=teller.service
TELLER_UNIT_DIR=/etc/systemd/system
TELLER_DROPIN_DIR=/etc/systemd/system/teller.service.d
TELLER_USER=teller
CREDENTIAL_NAME=teller-terminal-secret
# The terminal's own key for mutual TLS, sealed with systemd-creds: the one in
# use, and a new one waiting for its certificate (deploy/provision --client-csr).
CLIENT_KEY_NAME=teller-client-key
TELLER_CLIENT_KEY_CRED=/etc/teller/teller-client-key.cred
TELLER_CLIENT_KEY_NEXT=/etc/teller/teller-client-key.next.cred
TELLER_CLIENT_CERT=/etc/teller/client.pem

# Exit codes shared by the scripts (documented in docs/deploy.md).
EXIT_FAILED=1
EXIT_USAGE=2
EXIT_QUEUE_NOT_EMPTY=3
EXIT_ROLLED_BACK=4
EXIT_DATABASE_REFUSED=5
EXIT_UNCHANGED=6          # provision: done, and nothing needed changing
# teller status --settled / --drained: something is still queued (Sources/TellerCommands/StatusCommand.swift).
TELLER_NOT_SETTLED=10

# The package installs these scripts in /usr/lib/teller (deploy/package-deb);
# there they work on the package's /usr/bin/teller.
TELLER_PACKAGED=false
if [ "$DEPLOY_DIR" = /usr/lib/teller ]; then
    TELLER_PACKAGED=true
    TELLER_BIN=/usr/bin/teller
fi

# The last reason a script gave for failing (die, usage_error, a refusal),
# for scripts that also report in JSON (provision --json).
LAST_ERROR=""
say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
warn() { printf '%s: WARNING: %s\n' "$PROG" "$*" >&2; }
die() { LAST_ERROR="$*"; printf '%s: ERROR: %s\n' "$PROG" "$*" >&2; exit "$EXIT_FAILED"; }
usage_error() { LAST_ERROR="$*"; printf '%s: %s (see %s --help)\n' "$PROG" "$*" "$PROG" >&2; exit "$EXIT_USAGE"; }

# $1 as a JSON string (for --json output): quotes, backslashes and control
# characters escaped or dropped.
json_string() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\n'/\\n}
    s=${s//$'\t'/\\t}
    s=$(printf '%s' "$s" | tr -d '\000-\037')
    printf '"%s"' "$s"
}

# The path of $1 (an absolute path on the terminal) as seen from here.
in_root() {
    if [ "$ROOT" = / ]; then printf '%s\n' "$1"; else printf '%s%s\n' "${ROOT%/}" "$1"; fi
}

# Runs a command on the terminal (chroot when --root is not /).
on_terminal() {
    if [ "$ROOT" = / ]; then "$@"; else chroot "$ROOT" "$@"; fi
}

# Runs a command on the terminal as the teller user, so files it creates
# in the data directory belong to the service and not to root.
as_teller() {
    on_terminal setpriv --reuid="$TELLER_USER" --regid="$TELLER_USER" --init-groups --reset-env -- "$@"
}

# Commands to run when the script ends, however it ends (see at_exit); they
# run last-registered first and can read the script's exit status in
# $EXIT_STATUS.
declare -a EXIT_COMMANDS=()
EXIT_STATUS=0
at_exit() { EXIT_COMMANDS+=("$1"); }
run_exit_commands() {
    EXIT_STATUS=$?
    local i
    for ((i = ${#EXIT_COMMANDS[@]} - 1; i >= 0; i--)); do eval "${EXIT_COMMANDS[i]}" || true; done
}
trap run_exit_commands EXIT

set_root() {
    [ -n "$1" ] || usage_error "--root needs a directory"
    [ -d "$1" ] || die "--root $1 is not a directory"
    ROOT=$(cd "$1" && pwd)
    [ "$ROOT" != / ] || return 0
    # teller (Swift) reads its arguments from /proc/self/cmdline.
    if [ ! -e "$ROOT/proc/self" ]; then
        mkdir -p "$ROOT/proc"
        mount -t proc proc "$ROOT/proc" || die "cannot mount /proc in $ROOT"
        at_exit "umount '$ROOT/proc'"
    fi
}

require_root_user() {
    [ "$(id -u)" -eq 0 ] || die "run this as root (sudo $PROG ...)"
}

# True when a live systemd manages this root (a running device, not an image).
systemd_live() {
    [ "$ROOT" = / ] && [ -d /run/systemd/system ]
}

# systemctl for the terminal: live, or offline on an image with --root.
# TELLER_SYSTEMCTL replaces it (tests only).
terminal_systemctl() {
    if [ -n "${TELLER_SYSTEMCTL:-}" ]; then
        "$TELLER_SYSTEMCTL" "$@"
    elif systemd_live; then
        systemctl "$@"
    else
        systemctl --root="$ROOT" "$@"
    fi
}

teller_installed() {
    [ -x "$(in_root "$TELLER_BIN")" ]
}

# `teller config ARGS...` on the terminal's teller.conf ($TELLER_CONF) by the
# installed teller (through chroot with --root). Scripts never read or edit
# teller.conf themselves: teller's own parser reads each line as the terminal
# does (an inline '# comment' is not part of the value), and set writes only
# what the terminal would accept (docs/configuration.md).
teller_config() {
    on_terminal "$TELLER_BIN" config --config "$TELLER_CONF" "$@"
}

# The value of KEY as the terminal reads it, or $2 when teller.conf does not
# set it (teller config get exits 1). Fails with teller's exit code, its
# message naming the file and line on stderr, when the file cannot be read.
teller_config_get() {
    local value rc=0
    value=$(teller_config get "$1") || rc=$?
    case $rc in
        0) printf '%s\n' "$value" ;;
        1) printf '%s\n' "${2:-}" ;;
        *) return "$rc" ;;
    esac
}

# Copies $1 to the terminal path $2 with owner $3 and mode $4, only when
# something differs. Prints "changed" when it did.
install_file() {
    local source=$1 target owner=$3 mode=$4
    target=$(in_root "$2")
    if [ -f "$target" ] && cmp -s "$source" "$target" \
        && [ "$(stat -c %a "$target")" = "${mode#0}" ] \
        && [ "$(on_terminal stat -c %U:%G "$2")" = "$owner" ]; then
        return 0
    fi
    mkdir -p "$(dirname "$target")"
    install -m "$mode" "$source" "$target.new"
    on_terminal chown "$owner" "$2.new"
    mv -f "$target.new" "$target"
    echo changed
}

# teller status --settled as the service user: exit 0 and one line when
# nothing is queued, unacknowledged or to review, 10 and the line that says
# what is when something is, a database refusal's code otherwise. Nothing
# (exit 0) when the data directory $1 has no database yet.
teller_status_settled() {
    local data_dir=$1
    [ -e "$(in_root "$data_dir/teller.db")" ] || return 0
    as_teller "$TELLER_BIN" status --config "$TELLER_CONF" --settled
}

# What `teller status` exit code $1 says about the database it refused, in
# teller's own words (the one table is Swift's: DatabaseRefusal+ExitCode.swift);
# fails for any other code. Status only reads: the file is as it was.
database_refusal() {
    as_teller "$TELLER_BIN" status --refusal-meaning "$1"
}

# A sqlite3 filename that reads the database at $1 (a path on the terminal)
# without writing: `sqlite3 -readonly` still creates -wal and -shm beside a
# WAL database that has none, and leaves them. Like teller status: immutable
# when the -wal holds no log frames, else mode=ro through the writer's -shm;
# fails when the -shm it would need is missing.
sqlite_read_only_uri() {
    local db=$1 wal_size escaped
    wal_size=$(stat -c %s "$(in_root "$db")-wal" 2>/dev/null || echo 0)
    escaped=${db//%/%25}
    escaped=${escaped//\?/%3F}
    escaped=${escaped//#/%23}
    if [ "$wal_size" -le 32 ]; then
        printf 'file:%s?immutable=1\n' "$escaped"
    elif [ -e "$(in_root "$db")-shm" ]; then
        printf 'file:%s?mode=ro\n' "$escaped"
    else
        return 1
    fi
}

# Refuses (exit 3) when the outbox holds queued or unacknowledged rejected
# rows, and (exit 5) when teller status refuses the database itself (empty,
# foreign, newer, damaged, unreadable): nothing then touches the file.
# $1 says what the technician was about to do.
refuse_unless_queue_empty() {
    local action=$1 data_dir answer rc=0 problem
    teller_installed || return 0
    data_dir=$(teller_config_get data_dir /var/lib/teller) \
        || die "cannot tell where the queue is: teller config cannot read $TELLER_CONF (its message is above); fix the line it names"
    answer=$(teller_status_settled "$data_dir") || rc=$?
    if [ "$rc" -ne 0 ] && [ "$rc" -ne "$TELLER_NOT_SETTLED" ]; then
        if problem=$(database_refusal "$rc"); then
            LAST_ERROR="refusing to $action: $problem: $data_dir/teller.db"
            say "refusing to $action: $problem: $data_dir/teller.db (teller status exit $rc, its message is above)."
            say "  Nothing was written to it. See docs/deploy.md, 'When the database is refused'."
            say "  --force goes ahead without reading the queue; the file is kept, never deleted."
            exit "$EXIT_DATABASE_REFUSED"
        fi
        die "teller status failed, so the queue cannot be checked; run deploy/diagnose and call support (use --force only on their advice)"
    fi
    if [ "$rc" -eq "$TELLER_NOT_SETTLED" ]; then
        LAST_ERROR="refusing to $action: $answer"
        say "$LAST_ERROR."
        say "  Let the terminal send them (check the network, then: teller drain --until-empty),"
        say "  have the operator acknowledge rejections on the terminal, and have the back office resolve"
        say "  rows that need review. See docs/deploy.md, 'When the queue is stuck'."
        say "  --force goes ahead anyway; the queued rows are kept, never deleted."
        exit "$EXIT_QUEUE_NOT_EMPTY"
    fi
}
