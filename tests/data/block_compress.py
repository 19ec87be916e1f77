#!/usr/bin/env python3
"""Compress a file byte for byte into units the parallel reader can read at offsets
(docs/parallel-input.md "Compressed files"), with any unit size, so that tests can put
unit boundaries where they like; `shardlp convert` writes the same forms from a model.

    block_compress.py bgzf|zstd UNIT_BYTES IN OUT

bgzf: gzip members of UNIT_BYTES text bytes (at most 65,280), each with the "BC" extra
field holding the member's length - 1, then the empty end-of-file member.
zstd: frames of UNIT_BYTES text bytes (the zstd command), then the seekable format's
seek table in a skippable frame."""
import struct
import subprocess
import sys
import zlib


def bgzf_member(data):
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    head = b"\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\xff\x06\x00BC\x02\x00"
    total = len(head) + 2 + len(body) + 8
    return head + struct.pack("<H", total - 1) + body + struct.pack(
        "<II", zlib.crc32(data) & 0xFFFFFFFF, len(data))


def main():
    kind, unit, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    data = open(src, "rb").read()
    chunks = [data[k:k + unit] for k in range(0, len(data), unit)]
    with open(dst, "wb") as out:
        if kind == "bgzf":
            assert unit <= 65280
            for c in chunks + [b""]:
                out.write(bgzf_member(c))
            return
        sizes = []
        for c in chunks:
            frame = subprocess.run(["zstd", "-q", "-c", "-3"], input=c, check=True,
                                   stdout=subprocess.PIPE).stdout
            out.write(frame)
            sizes.append((len(frame), len(c)))
        table = b"".join(struct.pack("<II", a, b) for a, b in sizes)
        table += struct.pack("<IBI", len(sizes), 0, 0x8F92EAB1)
        out.write(struct.pack("<II", 0x184D2A5E, len(table)) + table)


if __name__ == "__main__":
    main()
