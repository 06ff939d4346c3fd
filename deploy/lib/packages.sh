# The installed teller packages, for the package's own update. Sourced.
#
#   /var/lib/teller-packages/teller_<version>_<arch>.deb   one per version
#   /var/lib/teller-packages/current  -> teller_....deb    what is installed
#   /var/lib/teller-packages/previous -> teller_....deb    what was before
#
# The .deb files are kept (at most the current, the previous and two more)
# so that a rollback works offline, without the apt repository; nothing of
# the queue is kept here. The same names as releases.sh, so update reads
# the same for both kinds of install.

# shellcheck shell=bash

TELLER_PACKAGES=/var/lib/teller-packages

# The field $2 of the package file $1 (dpkg-deb -f), or fails.
package_field() {
    dpkg-deb -f "$1" "$2" 2>/dev/null
}

# The store's name of the installed version ("teller_0.2.0_arm64.deb"),
# empty when teller is not installed from a package.
package_installed_name() {
    local version arch
    version=$(on_terminal dpkg-query -W -f '${Version}' teller 2>/dev/null) || return 0
    [ -n "$version" ] || return 0
    arch=$(on_terminal dpkg-query -W -f '${Architecture}' teller)
    printf 'teller_%s_%s.deb\n' "$version" "$arch"
}

# Checks FILE is a teller package for this terminal, copies it into the
# store (once) and prints its name. A different file under a version the
# store already has is refused: one version, one package.
package_add() {
    local file=$1 name arch version store target
    dpkg-deb --info "$file" >/dev/null 2>&1 || die "--deb $file: not a Debian package (dpkg-deb cannot read it)"
    [ "$(package_field "$file" Package)" = teller ] || die "--deb $file: not a teller package (dpkg-deb -f says Package: '$(package_field "$file" Package)')"
    arch=$(package_field "$file" Architecture)
    [ "$arch" = "$(on_terminal dpkg --print-architecture)" ] \
        || die "--deb $file: built for $arch, but this terminal is $(on_terminal dpkg --print-architecture)"
    version=$(package_field "$file" Version)
    name=teller_${version}_${arch}.deb
    store=$(in_root "$TELLER_PACKAGES")
    target=$store/$name
    if [ -f "$target" ]; then
        cmp -s "$file" "$target" || die "--deb $file: another package of version $version is stored as $target; a new build needs a new version"
    elif ! $DRY_RUN; then
        install -d -m 0755 "$store"
        install -m 0644 "$file" "$target.new"
        mv -f "$target.new" "$target"
    fi
    printf '%s\n' "$name"
}

package_link() {
    local link
    link=$(readlink "$(in_root "$TELLER_PACKAGES/$1")" 2>/dev/null) || return 0
    basename "$link"
}

# "0.2.0 (teller_0.2.0_arm64.deb)"
package_version() {
    local name=${1#teller_}
    printf '%s (%s)\n' "${name%_*}" "$1"
}

# Points LINK (current or previous) at NAME, atomically.
package_point() {
    local link
    link=$(in_root "$TELLER_PACKAGES/$1")
    ln -sfn "$2" "$link.new"
    mv -Tf "$link.new" "$link"
}

# Installs the stored package NAME with apt (offline: its dependencies are
# those of the version it replaces), keeping the technician's teller.conf.
# Downgrades are allowed: a rollback is one.
package_install() {
    local name=$1 log
    log=$(mktemp)
    if ! on_terminal env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades --no-install-recommends \
        -o Dpkg::Options::=--force-confold -o Dpkg::Options::=--force-confdef "$TELLER_PACKAGES/$name" > "$log" 2>&1; then
        tail -n 15 "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

# Deletes all but the current, the previous and the two newest others.
package_prune() {
    local keep_current keep_previous store name kept=0
    keep_current=$(package_link current)
    keep_previous=$(package_link previous)
    store=$(in_root "$TELLER_PACKAGES")
    # shellcheck disable=SC2045  # package names have no spaces; ls -t gives the age order
    for name in $(ls -1t "$store" 2>/dev/null); do
        case $name in teller_*.deb) ;; *) continue ;; esac
        [ "$name" = "$keep_current" ] && continue
        [ "$name" = "$keep_previous" ] && continue
        kept=$((kept + 1))
        [ "$kept" -le 2 ] && continue
        rm -f "${store:?}/$name"
    done
}
