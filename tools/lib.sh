# Shared by tools/test and tools/run. Sourced, not executed.
# shellcheck shell=bash

# Installs the Debian packages in tools/debian-packages that are missing:
# with apt-get when root, otherwise prints the exact command and fails.
ensure_debian_packages() {
    local list missing=()
    list=$(grep -v -E '^[[:space:]]*(#|$)' "$TELLER_ROOT/tools/debian-packages")
    for package in $list; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$package")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "tools: installing ${missing[*]}" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    else
        echo "tools: missing Debian packages; install them with:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        return 1
    fi
}

ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then
            export PATH="$PATH:/opt/swift/usr/bin"
        else
            echo "tools: the Swift 6 toolchain is not on PATH (see https://www.swift.org/install/linux/)" >&2
            return 1
        fi
    fi
}

# teller_cache NAME: the folder NAME of what is downloaded or built once and
# kept by content outside the clone, so that CI's clean clone reuses it:
# $TELLER_CACHE/NAME, by default /var/cache/teller/NAME as root and
# .build/cache/NAME for anyone else. Whatever is kept there is named by what
# it was made from, so a change makes a new entry and never reuses an old one.
teller_cache() {
    local root=${TELLER_CACHE:-}
    if [ -z "$root" ]; then
        if [ "$(id -u)" -eq 0 ]; then root=/var/cache/teller; else root=$TELLER_ROOT/.build/cache; fi
    fi
    mkdir -p "$root/$1" && echo "$root/$1"
}

# ensure_venv LOG REQUIREMENT...: prints the folder of a Python venv with
# the REQUIREMENTs from PyPI, in teller_cache's venv/, named by the
# requirements and the Python version, made once. A venv cannot move (its
# scripts name its path), so it is used where it was made. Runs side by
# side take turns under a lock: one installs, the others find it done.
# LOG gets pip's output.
ensure_venv() {
    local log=$1 root key venv
    shift
    root=$(teller_cache venv) || return 1
    key=$({ python3 --version; printf '%s\n' "$@"; } | sha256sum | cut -c1-16)
    venv=$root/$key
    (
        flock 9
        [ -f "$venv/.complete" ] && exit 0
        rm -rf "$venv"
        python3 -m venv "$venv" && "$venv/bin/pip" install -q "$@" >"$log" 2>&1 ||
            { tail -n 20 "$log" >&2; rm -rf "$venv"; echo "tools: pip could not install $* (log: $log)" >&2; exit 1; }
        printf '%s\n' "$@" >"$venv/.complete"
    ) 9>"$root/$key.lock" || return 1
    echo "$venv"
}

# The Ansible the fleet checks and the image proof drive: ansible-core 2.19
# (the "ansible" 12 package, with community.general) and ansible-lint, from
# PyPI, once (ensure_venv). Prints the venv's folder; LOG gets pip's output.
ensure_ansible_venv() {
    ensure_venv "$1" 'ansible>=12,<13' 'ansible-lint>=25'
}
