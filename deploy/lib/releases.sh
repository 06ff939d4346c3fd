# The installed teller binaries, for install and update. Sourced.
#
#   /usr/local/lib/teller/releases/<sha256-prefix>/teller   one per binary
#   /usr/local/lib/teller/releases/<sha256-prefix>/version  its --version
#   /usr/local/lib/teller/current  -> releases/<...>        what runs
#   /usr/local/lib/teller/previous -> releases/<...>        what ran before
#   /usr/local/bin/teller          -> ../lib/teller/current/teller
#
# Switching is one rename of a symlink, so a power cut leaves either the
# old or the new binary in place, never half of one.

# shellcheck shell=bash

# Copies FILE into releases/ (once) and prints its release name.
release_add() {
    local file=$1 name dir
    name=$(sha256sum "$file" | cut -c1-12)
    dir=$(in_root "$TELLER_LIB/releases/$name")
    if [ ! -x "$dir/teller" ]; then
        mkdir -p "$dir"
        install -m 0755 "$file" "$dir/teller.new"
        mv -f "$dir/teller.new" "$dir/teller"
    fi
    if [ ! -s "$dir/version" ]; then
        # A binary that cannot even print its version is still recorded, so
        # update can try it and roll back with a clear message.
        local version
        version=$(on_terminal timeout 20 "$TELLER_LIB/releases/$name/teller" --version 2>/dev/null) || version=""
        # One short line like 0.2.0, or the binary is not a working teller.
        [[ $version =~ ^[[:alnum:]][[:alnum:].+~_-]{0,63}$ ]] || version=unknown
        printf '%s\n' "$version" > "$dir/version.new"
        mv -f "$dir/version.new" "$dir/version"
    fi
    printf '%s\n' "$name"
}

release_link() {
    local link
    link=$(readlink "$(in_root "$TELLER_LIB/$1")" 2>/dev/null) || return 0
    basename "$link"
}
release_current() { release_link current; }
release_previous() { release_link previous; }

# "0.2.0 (3f2a9c1d0b4e)"
release_version() {
    printf '%s (%s)\n' "$(cat "$(in_root "$TELLER_LIB/releases/$1/version")" 2>/dev/null || echo unknown)" "$1"
}

# Points LINK (current or previous) at release NAME, atomically.
release_point() {
    local link name=$2 lib
    lib=$(in_root "$TELLER_LIB")
    link=$lib/$1
    ln -sfn "releases/$name" "$link.new"
    mv -Tf "$link.new" "$link"
}

# Makes NAME the current release; the old current becomes previous.
release_activate() {
    local name=$1 current bin
    current=$(release_current)
    if [ -n "$current" ] && [ "$current" != "$name" ]; then release_point previous "$current"; fi
    release_point current "$name"
    bin=$(in_root "$TELLER_BIN")
    mkdir -p "$(dirname "$bin")"
    if [ "$(readlink "$bin" 2>/dev/null)" != "../lib/teller/current/teller" ]; then
        ln -sfn ../lib/teller/current/teller "$bin.new"
        mv -Tf "$bin.new" "$bin"
    fi
    sync
}

# Deletes binaries that failed an update, then all but the two newest
# others; current and previous always stay.
release_prune() {
    local keep_current keep_previous lib name kept=0
    keep_current=$(release_current)
    keep_previous=$(release_previous)
    lib=$(in_root "$TELLER_LIB/releases")
    # shellcheck disable=SC2045  # release names are hex digits; ls -t gives the age order
    for name in $(ls -1t "$lib" 2>/dev/null); do
        [ "$name" = "$keep_current" ] && continue
        [ "$name" = "$keep_previous" ] && continue
        if [ -f "$lib/$name/failed" ]; then rm -rf "${lib:?}/$name"; continue; fi
        kept=$((kept + 1))
        [ "$kept" -le 2 ] && continue
        rm -rf "${lib:?}/$name"
    done
}
