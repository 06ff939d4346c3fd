# Shared by the VM scripts (device-proof, teller-vm). Sourced, not executed.
# The caller sets `repo`, `cache` and defines `die MESSAGE`.

# The guest's architecture: amd64 (the default: this machine's kernel from
# /boot, qemu-system-x86_64) or arm64 (Debian 13's arm64 kernel and
# busybox-static:arm64 from the Debian registry, binaries from
# tools/build-arm64, qemu-system-aarch64 -M virt). Callers set it from --arch.
vm_arch=${vm_arch:-amd64}

# Sets vm_arch from an --arch value; anything else is a failure.
vm_set_arch() {
    case "${1:-}" in
        amd64 | x86_64) vm_arch=amd64 ;;
        arm64 | aarch64) vm_arch=arm64 ;;
        *) die "--arch ${1:-} is neither amd64 nor arm64" ;;
    esac
}

# Checks the tools every VM script needs and sets `kernel`, `kver` and
# `busybox`. Missing tools are a failure, never a skip (.ci/run installs them).
vm_prerequisites() {
    if [ "$vm_arch" = arm64 ]; then vm_prerequisites_arm64; return; fi
    command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
    command -v python3 >/dev/null || die "python3 not found"
    command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"
    command -v modinfo >/dev/null || die "modinfo not found (apt-get install kmod)"
    command -v swift >/dev/null || die "swift not found"
    kernel=${DEVICE_PROOF_KERNEL:-${TELLER_VM_KERNEL:-$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1 || true)}}
    [ -n "$kernel" ] && [ -r "$kernel" ] || die "no readable kernel in /boot (apt-get install linux-image-amd64)"
    kver=${kernel##*/vmlinuz-}
    [ -d "/lib/modules/$kver" ] || die "no modules for kernel $kver in /lib/modules"
    busybox=""
    local candidate
    for candidate in /bin/busybox /usr/bin/busybox; do
        if [ -x "$candidate" ] && ! ldd "$candidate" >/dev/null 2>&1; then busybox=$candidate; break; fi
    done
    [ -n "$busybox" ] || die "no static busybox (apt-get install busybox-static)"
}

# Builds PRODUCT in release with the static Swift stdlib (always: the VM
# proves this commit's code) and sets `bin` to the executable.
vm_build_release() {
    local product=$1
    if [ "$vm_arch" = arm64 ]; then vm_build_release_arm64 "$product"; return; fi
    (cd "$repo" && swift build -c release --static-swift-stdlib --product "$product" 2>&1 | tail -n 3)
    bin="$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/$product"
    [ -x "$bin" ] || die "build produced no $bin"
}

# Resolves MODULE... and their dependencies (modinfo) into `order`, in load
# order, decompressing each .ko once per kernel version into `moddir`.
vm_modules() {
    moddir="$cache/../modules/$kver"
    mkdir -p "$moddir"
    moddir=$(cd "$moddir" && pwd)
    order=()
    declare -gA vm_seen=()
    local module
    for module in "$@"; do vm_add_module "$module"; done
}

vm_add_module() {
    local name=$1 dep file
    [ -n "${vm_seen[$name]:-}" ] && return 0
    vm_seen[$name]=1
    # arm64: the modules of the kernel package unpacked under vm_modbase (vm_prerequisites_arm64).
    local base=()
    [ -z "${vm_modbase:-}" ] || base=(-b "$vm_modbase")
    for dep in $(modinfo "${base[@]}" -k "$kver" -F depends "$name" | tr ',' ' '); do vm_add_module "$dep"; done
    file=$(modinfo "${base[@]}" -k "$kver" -n "$name") || die "module $name not found for $kver"
    case "$file" in
        "(builtin)"|"") return 0 ;;
    esac
    if [ ! -s "$moddir/$name.ko" ]; then
        case "$file" in
            *.ko.xz) xz -dc "$file" >"$moddir/$name.ko.part" ;;
            *.ko.zst) zstd -qdc "$file" >"$moddir/$name.ko.part" ;;
            *.ko.gz) gzip -dc "$file" >"$moddir/$name.ko.part" ;;
            *) cp "$file" "$moddir/$name.ko.part" ;;
        esac
        mv "$moddir/$name.ko.part" "$moddir/$name.ko"
    fi
    order+=("$name")
}

# Fills the initramfs tree ROOT with busybox, the modules in `order` and
# BINARY... with every library ldd lists for them (arm64: every library
# they need from the arm64 sysroot, vm_sysroot_libs).
vm_fill_root() {
    local root=$1 name lib binary
    shift
    mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}
    cp "$busybox" "$root/bin/busybox"
    for name in "${order[@]}"; do cp "$moddir/$name.ko" "$root/lib/modules/"; done
    if [ "$vm_arch" = arm64 ]; then
        for binary in "$@"; do cp "$binary" "$root/bin/"; done
        vm_sysroot_libs "$root" "$@"
        return
    fi
    for binary in "$@"; do
        cp "$binary" "$root/bin/"
        while read -r lib; do
            [ -n "$lib" ] || continue
            mkdir -p "$root$(dirname "$lib")"
            cp -L "$lib" "$root$lib"
        done < <(ldd "$binary" | grep -o '/[^ ]*' | sort -u)
    done
}

# Copies into ROOT every shared library BINARY... need, recursively, from
# the arm64 sysroot (`sysroot`, tools/build-arm64 --print-sysroot): the host's
# ldd cannot read aarch64 ELF, so the NEEDED entries come from readelf. The
# dynamic loader goes to /lib, the rest to /usr/lib/aarch64-linux-gnu (both
# on its built-in search path, so the guest needs no ld.so.cache).
vm_sysroot_libs() {
    local root=$1 file lib dir found real
    shift
    local queue=("$@")
    local -A copied=()
    mkdir -p "$root/lib" "$root/usr/lib/aarch64-linux-gnu"
    while [ ${#queue[@]} -gt 0 ]; do
        file=${queue[0]}
        queue=("${queue[@]:1}")
        for lib in $(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
            [ -z "${copied[$lib]:-}" ] || continue
            copied[$lib]=1
            found=""
            for dir in usr/lib/aarch64-linux-gnu lib/aarch64-linux-gnu usr/lib lib; do
                if [ -e "$sysroot/$dir/$lib" ]; then found=$sysroot/$dir/$lib; break; fi
            done
            [ -n "$found" ] || die "$file needs $lib, which the arm64 sysroot $sysroot does not have"
            real=$(readlink -f "$found")
            case "$real" in "$(readlink -f "$sysroot")"/*) ;; *) die "$found leads out of the sysroot (to $real)" ;; esac
            case "$lib" in
                ld-linux-aarch64.so.1) cp "$real" "$root/lib/$lib" ;;
                *) cp "$real" "$root/usr/lib/aarch64-linux-gnu/$lib" ;;
            esac
            queue+=("$real")
        done
    done
}

# arm64: the tools, the sysroot, and Debian 13's arm64 kernel (its modules
# unpacked and depmod'ed under `vm_modbase`) and busybox-static:arm64. The
# packages come through the apt of tools/build-arm64's trixie chroot (which
# has arm64 added; this machine's apt is never touched) and are cached in
# .vm-cache/arm64/ by package and version: a second run downloads nothing.
# Sets `kernel`, `kver`, `busybox`, `sysroot` and `vm_modbase`.
vm_prerequisites_arm64() {
    command -v qemu-system-aarch64 >/dev/null || die "qemu-system-aarch64 not found (apt-get install qemu-system-arm)"
    command -v qemu-aarch64-static >/dev/null || die "qemu-aarch64-static not found (apt-get install qemu-user-static): the host runs the aarch64 teller with it"
    command -v python3 >/dev/null || die "python3 not found"
    command -v cpio >/dev/null || die "cpio not found (apt-get install cpio)"
    command -v modinfo >/dev/null || die "modinfo not found (apt-get install kmod)"
    command -v depmod >/dev/null || command -v /sbin/depmod >/dev/null || die "depmod not found (apt-get install kmod)"
    command -v readelf >/dev/null || die "readelf not found (apt-get install binutils)"
    command -v dpkg-deb >/dev/null || die "dpkg-deb not found (apt-get install dpkg)"
    command -v chroot >/dev/null || die "chroot not found (apt-get install coreutils)"
    [ -x "$repo/tools/build-arm64" ] || die "tools/build-arm64 is missing: it builds the aarch64 binaries and holds the Debian 13 chroot"
    sysroot=$("$repo/tools/build-arm64" --print-sysroot 2>"${TMPDIR:-/tmp}/vm-sysroot.$$.log" | tail -n 1) ||
        die "tools/build-arm64 --print-sysroot failed: $(tail -n 5 "${TMPDIR:-/tmp}/vm-sysroot.$$.log")"
    rm -f "${TMPDIR:-/tmp}/vm-sysroot.$$.log"
    [ -d "$sysroot/usr/lib/aarch64-linux-gnu" ] || die "no arm64 sysroot at '$sysroot' (tools/build-arm64 --print-sysroot)"
    vm_chroot=${TELLER_ARM64_CACHE:-/var/cache/teller-arm64}/toolchain
    [ -x "$vm_chroot/usr/bin/apt-get" ] || die "no Debian 13 chroot with apt at $vm_chroot (tools/build-arm64 makes it)"
    local image
    image=$(chroot "$vm_chroot" apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^:]*\).*/\1/p' | head -n 1)
    [ -n "$image" ] || die "the chroot's apt knows no linux-image-arm64:arm64 (chroot $vm_chroot dpkg --print-foreign-architectures must list arm64)"
    vm_arm64_package "$image"
    kver=${image#linux-image-}
    vm_modbase=$vm_package_dir
    kernel=$vm_modbase/boot/vmlinuz-$kver
    [ -r "$kernel" ] || die "$image has no /boot/vmlinuz-$kver"
    vm_arm64_package busybox-static
    busybox=$vm_package_dir/usr/bin/busybox
    [ -x "$busybox" ] || die "busybox-static:arm64 has no /usr/bin/busybox"
}

# Sets vm_package_dir to PACKAGE:arm64 (the chroot apt's candidate) unpacked
# under .vm-cache/arm64/PACKAGE_VERSION/, downloading it only the first time.
# A kernel's modules go to lib/modules/KVER there, with depmod's index.
vm_arm64_package() {
    local package=$1 version dir stage
    version=$(chroot "$vm_chroot" apt-cache show --no-all-versions "$package:arm64" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
    [ -n "$version" ] || die "the chroot's apt knows no $package:arm64"
    dir="$repo/.vm-cache/arm64/${package}_${version//:/%3a}"
    vm_package_dir=$dir
    [ -e "$dir/.complete" ] && return 0
    echo "vm: downloading $package:arm64 $version (once; cached in $dir)"
    stage=$(mktemp -d "$vm_chroot/tmp/teller-vm-download.XXXXXX")
    chroot "$vm_chroot" sh -c "cd /tmp/${stage##*/} && apt-get -q -o APT::Sandbox::User=root download '$package:arm64=$version'" >"$stage/apt.log" 2>&1 ||
        { local why; why=$(tail -n 5 "$stage/apt.log"); rm -rf "$stage"; die "apt-get download $package:arm64=$version in $vm_chroot failed: $why"; }
    rm -rf "$dir.part" && mkdir -p "$dir.part"
    dpkg-deb -x "$stage"/*.deb "$dir.part" || { rm -rf "$stage"; die "cannot unpack $package:arm64"; }
    rm -rf "$stage"
    if [ -d "$dir.part/usr/lib/modules" ]; then
        # kmod on this machine looks in BASE/lib/modules; Debian 13 ships them in /usr/lib/modules.
        mkdir -p "$dir.part/lib"
        mv "$dir.part/usr/lib/modules" "$dir.part/lib/modules"
    fi
    if [ -d "$dir.part/lib/modules" ]; then
        local k
        for k in "$dir.part"/lib/modules/*; do
            PATH="$PATH:/sbin:/usr/sbin" depmod -b "$dir.part" "${k##*/}" || die "depmod for ${k##*/} failed"
        done
    fi
    touch "$dir.part/.complete"
    rm -rf "$dir"
    mv "$dir.part" "$dir"
}

# arm64: builds PRODUCT with tools/build-arm64 (this commit's code, Debian
# 13's Swift, static Swift stdlib) and sets `bin` to the aarch64 executable.
vm_build_release_arm64() {
    local product=$1 log
    log=$(mktemp)
    if ! "$repo/tools/build-arm64" --product "$product" >"$log" 2>&1; then
        tail -n 15 "$log" >&2
        rm -f "$log"
        die "tools/build-arm64 --product $product failed"
    fi
    tail -n 3 "$log"
    rm -f "$log"
    bin="$repo/.build/arm64/release/$product"
    [ -x "$bin" ] || die "tools/build-arm64 produced no $bin"
    readelf -h "$bin" | grep -q AArch64 || die "$bin is not an aarch64 executable"
}

# Sets `host_teller` to what runs the teller BINARY on this machine: the
# binary itself on amd64; on arm64 a wrapper in `cache` that runs it under
# qemu-aarch64-static with the sysroot's libraries (for hash-pin, the disk's
# provisioning and `teller ctl` over the control channel).
vm_host_teller() {
    host_teller=$1
    [ "$vm_arch" = arm64 ] || return 0
    host_teller="$cache/teller-aarch64"
    cat >"$host_teller" <<WRAPPER
#!/bin/sh
# The aarch64 teller of this checkout, on this x86_64 machine (deploy/vm/lib.sh).
exec qemu-aarch64-static -L '$sysroot' '$1' "\$@"
WRAPPER
    chmod +x "$host_teller"
}

# Packs ROOT into the gzip'd newc cpio OUTPUT.
vm_pack() {
    (cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) >"$2"
}
