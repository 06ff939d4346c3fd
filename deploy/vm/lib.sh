# Shared by the VM scripts (device-proof, teller-vm). Sourced, not executed.
# The caller sets `repo`, `cache` and defines `die MESSAGE`.

# Checks the tools every VM script needs and sets `kernel`, `kver` and
# `busybox`. Missing tools are a failure, never a skip (.ci/run installs them).
vm_prerequisites() {
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
    for dep in $(modinfo -k "$kver" -F depends "$name" | tr ',' ' '); do vm_add_module "$dep"; done
    file=$(modinfo -k "$kver" -n "$name") || die "module $name not found for $kver"
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
# BINARY... with every library ldd lists for them.
vm_fill_root() {
    local root=$1 name lib binary
    shift
    mkdir -p "$root"/{bin,dev,proc,sys,tmp,lib/modules}
    cp "$busybox" "$root/bin/busybox"
    for name in "${order[@]}"; do cp "$moddir/$name.ko" "$root/lib/modules/"; done
    for binary in "$@"; do
        cp "$binary" "$root/bin/"
        while read -r lib; do
            [ -n "$lib" ] || continue
            mkdir -p "$root$(dirname "$lib")"
            cp -L "$lib" "$root$lib"
        done < <(ldd "$binary" | grep -o '/[^ ]*' | sort -u)
    done
}

# Packs ROOT into the gzip'd newc cpio OUTPUT.
vm_pack() {
    (cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) >"$2"
}
