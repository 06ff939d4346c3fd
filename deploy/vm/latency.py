#!/usr/bin/env python3
"""Prints the distribution of the terminal's `log_latency` lines found in a
log: how long each press, release, key and scan took from the kernel's
input timestamp to the presented frame (for DRM, the page flip's
completion), both CLOCK_MONOTONIC. Standard library only.

Usage: latency.py LOG [LABEL]

It judges no figure (under qemu TCG they say more about the emulation than
about the terminal). It fails (exit 1) when the log has no latency lines at
all, so a terminal that stopped logging them is noticed, and when an input
comes after the frame said to show it, which only clocks that differ can
cause.
"""
import math
import re
import sys

LINE = re.compile(r"latency: (\w+) input=(-?\d+\.\d{6}) presented=(-?\d+\.\d{6}) ms=(-?\d+\.\d{3})")


def percentile(ordered, p):
    """Nearest rank: the smallest value with at least p % of the values at or below it."""
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: latency.py LOG [LABEL]", file=sys.stderr)
        return 2
    path, label = sys.argv[1], (sys.argv[2] if len(sys.argv) == 3 else "latency")
    try:
        with open(path, errors="replace") as f:
            found = [LINE.search(line) for line in f]
    except OSError as e:
        print(f"{label}: FAIL: cannot read {path}: {e.strerror}")
        return 1
    samples = [(m.group(1), float(m.group(4))) for m in found if m]
    if not samples:
        print(f"{label}: FAIL: no 'latency:' lines in {path} (is log_latency = true in the terminal's teller.conf?)")
        return 1
    kinds = {}
    for kind, _ in samples:
        kinds[kind] = kinds.get(kind, 0) + 1
    ordered = sorted(ms for _, ms in samples)
    figures = " ".join(f"{name} {value:.2f}" for name, value in [
        ("min", ordered[0]), ("p50", percentile(ordered, 50)), ("p90", percentile(ordered, 90)),
        ("p99", percentile(ordered, 99)), ("max", ordered[-1])])
    print(f"{label}: {len(samples)} inputs ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); "
          f"kernel input to presented frame, ms: {figures}")
    negative = [ms for _, ms in samples if ms < 0]
    if negative:
        print(f"{label}: FAIL: {len(negative)} inputs came after the frame that showed them (as much as {-min(negative):.3f} ms): "
              "the input and display clocks differ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
