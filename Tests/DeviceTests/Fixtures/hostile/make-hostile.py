#!/usr/bin/env python3
"""Writes the hostile evemu recordings in this directory.

Each file is input that once crashed the terminal (or could have): the
reader must refuse it naming the line, or decode it without trapping.
Run from this directory; the output is deterministic.
"""
import random

HEADER = "# EVEMU 1.3\nN: Hostile\nI: 0003 0001 0002 0003\n"
# A multitouch screen: ABS_MT_SLOT, ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID, INPUT_PROP_DIRECT.
MT = (
    "# EVEMU 1.3\nN: Hostile MT\nI: 0003 0001 0002 0003\n"
    "P: 02 00 00 00 00 00 00 00\n"
    "B: 00 0b 00 00 00 00 00 00 00\n"
    "B: 01 00 00 00 00 00 00 00 00\n"
    "B: 03 00 00 00 00 00 80 60 02\n"
)


def write(name, text):
    data = text.encode("latin-1") if isinstance(text, str) else text
    with open(name, "wb") as f:
        f.write(data)


# 1. 1,100 P: lines: property bit 8192 overflowed UInt16 in EvemuReader.
write("many-property-lines.evemu", HEADER + "P: ff ff ff ff ff ff ff ff\n" * 1100)
# 2. 1,100 B: 01 lines: key code 65536 overflowed UInt16 in EvemuReader.
write("many-key-lines.evemu", HEADER + "B: 01 ff ff ff ff ff ff ff ff\n" * 1100)
# 3. ABS_MT_SLOT maximum Int32.max: maximum + 1 overflowed Int32 in TouchDecoder.
write("slot-maximum-int32.evemu", MT + "A: 2f 0 2147483647 0 0 0\nA: 35 0 4095 0 0 0\nA: 36 0 4095 0 0 0\nA: 39 0 65535 0 0 0\n")
# 4. 50,000,000 slots: TouchDecoder allocated two arrays of that many slots (1.6 GB).
write("slot-maximum-50-million.evemu", MT + "A: 2f 0 50000000 0 0 0\nA: 35 0 4095 0 0 0\nA: 36 0 4095 0 0 0\nA: 39 0 65535 0 0 0\n")
# 5. Negative slot range: no slot can ever be selected.
write("slot-range-negative.evemu", MT + "A: 2f -10 -1 0 0 0\nA: 35 0 4095 0 0 0\nA: 36 0 4095 0 0 0\nA: 39 0 65535 0 0 0\n")
# 6. Widest ranges Int32 allows, and events at both ends: must decode.
events = []
t = 0
for i in range(200):
    t += 1000
    v = [-2147483648, 2147483647, 0, -1][i % 4]
    events += [
        f"E: {t // 1000000}.{t % 1000000:06d} 0003 002f {[0, 1, 63, -1, 2147483647][i % 5]}",
        f"E: {t // 1000000}.{t % 1000000:06d} 0003 0039 {v}",
        f"E: {t // 1000000}.{t % 1000000:06d} 0003 0035 {v}",
        f"E: {t // 1000000}.{t % 1000000:06d} 0003 0036 {-v - 1}",
        f"E: {t // 1000000}.{t % 1000000:06d} 0000 0000 0",
    ]
write("widest-ranges.evemu",
      MT + "A: 2f 0 9 0 0 0\nA: 35 -2147483648 2147483647 0 0 0\nA: 36 0 2147483647 0 0 0\n"
      "A: 39 0 65535 0 0 0\n" + "\n".join(events) + "\n")
# 7. 10,000 E: lines of absurd values on a valid device (slots out of range,
#    Int32 extremes, SYN_DROPPED in the middle of frames, keys with value 2147483647).
rng = random.Random(1100)
lines = []
codes = [(0, 0), (0, 3), (0, 2), (3, 0x2f), (3, 0x39), (3, 0x35), (3, 0x36), (3, 0), (3, 1), (1, 0x14a), (1, 0x110),
         (1, 28), (1, 42), (1, 29), (1, 16), (2, 0), (2, 1), (4, 4)]
extremes = [-2147483648, 2147483647, -1, 0, 1, 2, 63, 64, 1000000]
t = 0
for i in range(10000):
    t += rng.choice([0, 1, 999999])
    typ, code = rng.choice(codes)
    lines.append(f"E: {t // 1000000}.{t % 1000000:06d} {typ:04x} {code:04x} {rng.choice(extremes)}")
write("absurd-events.evemu", MT + "A: 2f 0 9 0 0 0\nA: 35 0 4095 0 0 0\nA: 36 0 4095 0 0 0\nA: 39 0 65535 0 0 0\n" + "\n".join(lines) + "\n")
# 8. Event time so large that seconds * 1,000,000 overflows Int64.
write("time-overflow.evemu", HEADER + "E: 0.000000 0000 0000 0\nE: 9223372036854775807.999999 0000 0000 0\n")
# 9. Negative event time.
write("time-negative.evemu", HEADER + "E: -5.000000 0000 0000 0\n")
# 10. A value beyond Int32.
write("value-too-large.evemu", HEADER + "E: 0.000000 0003 0035 99999999999\n")
# 11. Not hexadecimal.
write("not-hex.evemu", "N: Hostile\nI: 0003 zzzz 0002 0003\n")
# 12. Truncated in the middle of the last line.
write("truncated.evemu", HEADER + "E: 0.000000 0003 0035 12\nE: 0.000100 0003 00")
# 13. NUL bytes inside a number.
write("nul-bytes.evemu", HEADER + "E: 0.000000 00\x0003 0035 12\n")
# 14. A line of 1 MB: a maximum of a million nines.
write("megabyte-line.evemu", HEADER + "A: 35 0 " + "9" * 1_048_576 + " 0 0 0\n")
# 15. Event type and code beyond what the kernel defines.
write("event-type-beyond-ev-max.evemu", HEADER + "E: 0.000000 ffff 0000 1\n")
write("event-code-beyond-abs-max.evemu", HEADER + "E: 0.000000 0003 ffff 1\n")
# 16. Axis, LED and switch codes beyond their maxima.
write("axis-code-beyond-abs-max.evemu", HEADER + "A: ffff 0 100 0 0 0\n")
write("led-code-beyond-led-max.evemu", HEADER + "L: ffff 1\n")
# 17. A switch bit beyond SW_MAX inside the one allowed B: 05 line.
write("switch-bit-beyond-sw-max.evemu", HEADER + "B: 05 00 00 ff 00 00 00 00 00\n")
# 18. Random bytes.
write("garbage.evemu", bytes(random.Random(4096).randrange(256) for _ in range(4096)))
# 19. Nothing at all.
write("empty.evemu", "")
