# Shared by deploy/image/build, bundle and proof. Sourced, not executed.
# shellcheck shell=bash
# shellcheck disable=SC2034  # the names below are used by the scripts that source this
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

# The layout every Teller image has (docs/deploy.md, "The image"). The GUIDs
# are the same on every terminal: nothing on the disk's layout is
# per-terminal, and GRUB and the kernel find the slots by them.
ESP_MB=64
SLOT_MB=640
DATA_MB=1024
DISK_GUID=5E11E700-7E11-4E70-A000-000000000000
ESP_PARTUUID=5E11E700-7E11-4E70-A000-0000000000B0
ROOT_A_PARTUUID=5E11E700-7E11-4E70-A000-00000000000A
ROOT_B_PARTUUID=5E11E700-7E11-4E70-A000-00000000000B
DATA_PARTUUID=5E11E700-7E11-4E70-A000-0000000000DA
DATA_FS_UUID=5e11e700-7e11-4e70-a000-0000000000da
ESP_VOLUME_ID=7E11E700
# Where customize leaves the boot partition's files in the tree, for build to move out.
ESP_STAGE=teller-esp

# The packages mmdebstrap downloaded, named by package, version and
# architecture, kept outside the clone (tools/lib.sh, teller_cache).
TELLER_ROOT=${TELLER_ROOT:-$REPO_DIR}
. "$REPO_DIR/tools/lib.sh"
IMAGE_CACHE=$(teller_cache image)
IMAGE_KEYS_DEFAULT=$REPO_DIR/.build/image/keys
IMAGE_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# What the image holds besides teller's own Depends: systemd, the kernel,
# GRUB's EFI modules and grub-editenv (RAUC's boot counter), RAUC, the
# filesystems' tools, the network, sshd (off unless provisioned), and
# python3-minimal's interpreter with the standard library for the teller.fleet
# Ansible collection's modules over SSH (python3: nothing on the terminal runs
# it otherwise).
IMAGE_PACKAGES_COMMON=systemd,rauc-service,systemd-sysv,systemd-timesyncd,udev,dbus,kmod,initramfs-tools,adduser,rauc,e2fsprogs,dosfstools,squashfs-tools,openssh-server,ca-certificates,iproute2,grub-common,systemd-resolved,python3

# Sets IMAGE_ARCH, IMAGE_SUITE, IMAGE_PACKAGES, the GRUB target and the root partition type.
image_set_arch() {
    case "$1" in
        amd64 | x86_64)
            IMAGE_ARCH=amd64 IMAGE_SUITE=bookworm GRUB_TARGET=x86_64-efi EFI_BOOT_NAME=BOOTX64.EFI
            ROOT_PART_TYPE=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709 SERIAL_CONSOLE=ttyS0
            IMAGE_PACKAGES=$IMAGE_PACKAGES_COMMON,linux-image-amd64,grub-efi-amd64-bin ;;
        arm64 | aarch64)
            IMAGE_ARCH=arm64 IMAGE_SUITE=trixie GRUB_TARGET=arm64-efi EFI_BOOT_NAME=BOOTAA64.EFI
            ROOT_PART_TYPE=B921B045-1DF0-41C3-AF44-4C6F280D3FAE SERIAL_CONSOLE=ttyAMA0
            IMAGE_PACKAGES=$IMAGE_PACKAGES_COMMON,linux-image-arm64,grub-efi-arm64-bin ;;
        *) usage_error "--arch ${1:-} is neither amd64 nor arm64" ;;
    esac
    RAUC_COMPATIBLE=teller-$IMAGE_ARCH
}

# Makes the development signing key and certificate in DIR once (a bank
# brings its own: docs/deploy.md, "Signing keys"); checks that they match.
image_keys() {
    local dir=$1
    if [ ! -f "$dir/signing.key.pem" ] && [ "$dir" = "$IMAGE_KEYS_DEFAULT" ]; then
        mkdir -p "$dir"
        say "making a development signing key in $dir (for this checkout's images only)"
        openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/O=Teller development/CN=Teller update signing (development)" \
            -keyout "$dir/signing.key.pem.new" -out "$dir/signing.cert.pem.new" 2>/dev/null || die "openssl could not make a signing key"
        chmod 0600 "$dir/signing.key.pem.new"
        mv "$dir/signing.cert.pem.new" "$dir/signing.cert.pem"
        mv "$dir/signing.key.pem.new" "$dir/signing.key.pem"
    fi
    [ -f "$dir/signing.cert.pem" ] || die "$dir/signing.cert.pem: no signing certificate"
    [ -f "$dir/signing.key.pem" ] || die "$dir/signing.key.pem: no signing key"
    [ "$(openssl x509 -in "$dir/signing.cert.pem" -noout -pubkey)" = "$(openssl pkey -in "$dir/signing.key.pem" -pubout)" ] ||
        die "$dir: signing.key.pem is not the key of signing.cert.pem"
}

# arm64 from this amd64 machine: mmdebstrap runs apt natively and only the
# maintainer scripts (and customize's chroot calls) under qemu-user, through
# binfmt_misc, which this registers when it is not yet.
image_foreign_arch_ready() {
    [ "$IMAGE_ARCH" = "$(dpkg --print-architecture)" ] && return 0
    command -v arch-test >/dev/null 2>&1 || die "arch-test is missing (mmdebstrap needs it for $IMAGE_ARCH; tools/debian-packages lists it)"
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || die "cannot mount binfmt_misc"
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 || die "cannot register qemu-aarch64 with binfmt_misc (apt-get install binfmt-support qemu-user-static)"
    arch-test "$IMAGE_ARCH" >/dev/null || die "this machine cannot run $IMAGE_ARCH programs (arch-test $IMAGE_ARCH)"
}
