/* The two compressed forms made of independent units (docs/parallel-input.md
 * "Compressed files"): the constants their reader (io/text_at.c) and writer
 * (io/block_out.c) share. */
#ifndef SLP_BLOCK_UNITS_H
#define SLP_BLOCK_UNITS_H

/* BGZF: gzip members whose header carries one extra field "BC" with the member's
 * length - 1 in 16 bits (FLG = 4, XLEN = 6); their 16 fixed bytes (MTIME 0, OS 255). */
#define BGZF_HEADER 18      /* the header with its "BC" field */
#define BGZF_TRAILER 8      /* CRC-32 and ISIZE */
#define BGZF_MAX_MEMBER 65536
#define BGZF_MAX_TEXT 65536 /* the text of one member, at most */
static const unsigned char slp_bgzf_head[16] = {0x1f, 0x8b, 8, 4, 0, 0, 0, 0,
                                                0,    0xff, 6, 0, 'B', 'C', 2, 0};

/* zstd's seekable format: a skippable frame holding the seek table, whose 9-byte footer
 * (frames, descriptor, magic) ends the file. */
#define ZSTD_SKIPPABLE_MAGIC 0x184D2A5Eu
#define ZSTD_SEEKABLE_MAGIC 0x8F92EAB1u
#define ZSTD_SEEKABLE_FOOTER 9

#endif
