"""Helpers shared by the VM scripts (proof_harness.py, teller_vm.py): the
qemu monitor and serial sockets, PPM screendumps, and PNG in and out.
Standard library only.
"""
import select
import socket
import struct
import time
import zlib


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    pos += 1
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise ValueError(f"{path}: not an 8-bit P6 PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos:pos + w * h * 3]
    rows = []
    for y in range(h):
        row = pixels[y * w * 3:(y + 1) * w * 3]
        rows.append([row[i] << 16 | row[i + 1] << 8 | row[i + 2] for i in range(0, w * 3, 3)])
    return w, h, rows


def write_png(path, w, h, rows):
    raw = bytearray()
    for row in rows:
        raw.append(0)
        for p in row:
            raw += bytes(((p >> 16) & 255, (p >> 8) & 255, p & 255))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def connect(path, deadline):
    while time.time() < deadline:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"qemu did not open {path}")


def monitor_command(sock, command):
    sock.sendall(command.encode() + b"\n")
    buf = b""
    deadline = time.time() + 30
    while not buf.rstrip().endswith(b"(qemu)") and time.time() < deadline:
        r, _, _ = select.select([sock], [], [], 1)
        if r:
            buf += sock.recv(65536)
    return buf.decode(errors="replace")


def read_png(path):
    """Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what libpng and
    write_png write) into (w, h, rows of 0xRRGGBB)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are read")
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if w is None:
        raise ValueError(f"{path}: no IHDR")
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append([line[i] << 16 | line[i + 1] << 8 | line[i + 2] for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def differing_pixels(a, b, channel_tolerance=8):
    """How many pixels of two equally sized images differ by more than
    `channel_tolerance` in any channel (anti-aliasing noise stays under it)."""
    count = 0
    for ra, rb in zip(a, b):
        if ra == rb:
            continue
        for pa, pb in zip(ra, rb):
            if pa != pb and (abs((pa >> 16) - (pb >> 16)) > channel_tolerance or
                             abs(((pa >> 8) & 255) - ((pb >> 8) & 255)) > channel_tolerance or
                             abs((pa & 255) - (pb & 255)) > channel_tolerance):
                count += 1
    return count


def report_failures(prefix, failures, console, log, tail):
    """Prints FAIL, each failure and the console's last lines; returns 1.
    Nothing is printed and 0 is returned when there are no failures."""
    if not failures:
        return 0
    print(f"{prefix}: FAIL", flush=True)
    for f in failures:
        print("  " + f, flush=True)
    print(f"  console log: {console}; its last lines:", flush=True)
    for line in log.splitlines()[-tail:]:
        print("  | " + line, flush=True)
    return 1
