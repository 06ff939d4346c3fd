# Shared by tools/test and tools/run. Sourced, not executed.

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

# The Ansible the fleet checks and the image proof drive: ansible-core 2.19
# (the "ansible" 12 package, with community.general) and ansible-lint, from
# PyPI into .build/ansible-venv, once. LOG gets pip's output.
# Two proofs running side by side (tools/test) take turns: one installs, the
# other finds it done.
ensure_ansible_venv() {
    local venv=$TELLER_ROOT/.build/ansible-venv log=$1
    mkdir -p "$TELLER_ROOT/.build"
    (
        flock 9
        [ -x "$venv/bin/ansible-playbook" ] && [ -x "$venv/bin/ansible-lint" ] && exit 0
        python3 -m venv "$venv"
        "$venv/bin/pip" install -q 'ansible>=12,<13' 'ansible-lint>=25' >"$log" 2>&1 ||
            { tail -n 20 "$log" >&2; echo "tools: pip could not install ansible (log: $log)" >&2; exit 1; }
    ) 9>"$TELLER_ROOT/.build/ansible-venv.lock"
}
