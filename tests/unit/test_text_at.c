/* Compressed files read at any offset (io/text_at.h) and written in units
 * (io/block_out.h), checked against the bytes written:
 *   - BGZF and seekable zstd files of text (MPS-like lines) and of random bytes (which
 *     deflate cannot shrink: BGZF's stored members), several units long: 2,000 reads at
 *     random offsets and lengths, across units and past the end, give the original bytes;
 *   - BGZF members found by slp_bgzf_scan over 1 to 7 parts of the file: the parts'
 *     chains join (each part's first member is the previous part's next) and together
 *     are every member; a part that starts inside the file's last member finds none;
 *   - zlib and the zstd library read the files as plain gzip / zstd (the units are
 *     ordinary members and frames);
 *   - a damaged member or frame: a read of its bytes fails (-1), other reads still work;
 *   - a single-member gzip file, a cut BGZF chain and a zstd file without a seek table
 *     cannot be read at offsets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef SLP_HAVE_ZSTD
#include <zstd.h>
#endif

#include "check.h"
#include "io/block_out.h"
#include "io/text_at.h"

static char dir[] = "/tmp/test_text_at_XXXXXX";

static char *text_bytes(size_t n, int random_bytes)
{
    char *t = malloc(n);
    uint64_t s = 12345;
    size_t k = 0;
    while (k < n) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (random_bytes) {
            t[k++] = (char)(s >> 56);
            continue;
        }
        char line[64];
        int len = snprintf(line, sizeof line, "    X%06u  R%05u  %.6g\n", (unsigned)(k / 30),
                           (unsigned)(s >> 40) % 70000, (double)(s >> 11) / 9007199254740992.0);
        for (int j = 0; j < len && k < n; j++)
            t[k++] = line[j];
    }
    return t;
}

static void write_file(const char *path, slp_block_out_kind kind, const char *t, size_t n)
{
    FILE *f = fopen(path, "wb");
    slp_block_out_t *o = NULL;
    CHECK(f && slp_block_out_open(f, kind, path, &o) == SLP_OK, "open %s", path);
    size_t at = 0;
    while (at < n) { /* writes of uneven sizes */
        size_t step = 1 + (at * 7919) % 150000;
        step = step < n - at ? step : n - at;
        CHECK(slp_block_out_write(o, t + at, step) == 0, "write %s", path);
        at += step;
    }
    CHECK(slp_block_out_close(&o) == 0 && fclose(f) == 0, "close %s", path);
}

/* Every member of a BGZF file through parts of it, as the ranks of a read find them. */
static void give_units(slp_text_at_t *t, int parts)
{
    int64_t size = slp_text_at_file_size(t), prev_next = 0, total = 0;
    slp_text_unit_t *all = NULL;
    for (int k = 0; k < parts; k++) {
        slp_text_unit_t *u;
        int64_t count, first, next;
        int rc = slp_bgzf_scan(t, size * k / parts, size * (k + 1) / parts, &u, &count, &first,
                               &next);
        CHECK(rc == 0 && first == prev_next, "part %d of %d: rc %d, first %lld, expected %lld",
              k, parts, rc, (long long)first, (long long)prev_next);
        all = realloc(all, sizeof *all * (size_t)(total + count + 1));
        if (count > 0)
            memcpy(all + total, u, sizeof *u * (size_t)count);
        total += count;
        prev_next = next;
        free(u);
    }
    CHECK(prev_next == size, "the chain ends at %lld, the file at %lld", (long long)prev_next,
          (long long)size);
    CHECK(slp_text_at_set_units(t, all, total) == SLP_OK, "units");
    free(all);
}

static void check_reads(slp_text_at_t *t, const char *text, size_t n, const char *what)
{
    CHECK(slp_text_at_size(t) == (int64_t)n, "%s: %lld text bytes, wrote %zu", what,
          (long long)slp_text_at_size(t), n);
    char *buf = malloc(300000);
    uint64_t s = 99;
    int bad = 0;
    for (int k = 0; k < 2000; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int64_t off = (int64_t)((s >> 20) % (n + 100));
        size_t len = (size_t)((s >> 8) % 300000);
        ssize_t got = slp_text_at_read(t, buf, len, off);
        size_t expect = off >= (int64_t)n ? 0 : n - (size_t)off < len ? n - (size_t)off : len;
        if (got != (ssize_t)expect || (expect && memcmp(buf, text + off, expect) != 0))
            bad++;
    }
    CHECK(bad == 0, "%s: %d of 2000 reads differ from the bytes written", what, bad);
    free(buf);
}

static slp_text_at_t *open_at(const char *path, slp_text_at_kind want)
{
    slp_text_at_t *t = NULL;
    slp_text_at_kind kind;
    CHECK(slp_text_at_open(path, &t, &kind) == SLP_OK && kind == want,
          "%s: kind %d, expected %d", path, (int)kind, (int)want);
    return t;
}

/* What zlib's gzip reader makes of the file (every member, concatenated). */
static int gunzip_equals(const char *path, const char *text, size_t n)
{
    gzFile g = gzopen(path, "rb");
    char *buf = malloc(n + 1);
    int got = g ? gzread(g, buf, (unsigned)n + 1) : -1;
    int same = got == (int)n && memcmp(buf, text, n) == 0;
    if (g)
        gzclose(g);
    free(buf);
    return same;
}

static void flip_byte(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ 0x55, f);
    fclose(f);
}

static void test_bgzf(const char *name, int random_bytes, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.gz", dir, name);
    char *text = text_bytes(n, random_bytes);
    write_file(path, SLP_BLOCK_OUT_BGZF, text, n);
    CHECK(gunzip_equals(path, text, n), "%s: gzip reads the bytes written", name);
    for (int parts = 1; parts <= 7; parts++) {
        slp_text_at_t *t = open_at(path, SLP_TEXT_AT_BGZF);
        if (!t)
            break;
        CHECK(slp_text_at_size(t) == -1, "%s: no size before the units", name);
        give_units(t, parts);
        if (parts == 1 || parts == 7)
            check_reads(t, text, n, name);
        slp_text_at_close(&t);
    }
    /* a part inside the last member (the end marker's 28 bytes) finds no member */
    slp_text_at_t *t = open_at(path, SLP_TEXT_AT_BGZF);
    int64_t size = slp_text_at_file_size(t), count = -1, first, next;
    slp_text_unit_t *u = NULL;
    CHECK(slp_bgzf_scan(t, size - 10, size, &u, &count, &first, &next) == 0 && count == 0 &&
              first == size && next == size,
          "%s: the end: count %lld", name, (long long)count);
    free(u);
    slp_text_at_close(&t);

    /* a damaged member: reads of it fail, a read elsewhere works */
    flip_byte(path, 200);
    t = open_at(path, SLP_TEXT_AT_BGZF);
    give_units(t, 3);
    char buf[100];
    CHECK(slp_text_at_read(t, buf, sizeof buf, 10) == -1, "%s: damaged member read", name);
    if (n > 200000) /* several members */
        CHECK(slp_text_at_read(t, buf, sizeof buf, (int64_t)n - 100) == 100 &&
                  memcmp(buf, text + n - 100, 100) == 0,
              "%s: a read of another member", name);
    slp_text_at_close(&t);
    free(text);
}

static void test_not_splittable(void)
{
    char path[256];
    size_t n = 300000;
    char *text = text_bytes(n, 0);
    snprintf(path, sizeof path, "%s/one-member.gz", dir);
    gzFile g = gzopen(path, "wb");
    gzwrite(g, text, (unsigned)n);
    gzclose(g);
    slp_text_at_t *t = NULL;
    slp_text_at_kind kind;
    CHECK(slp_text_at_open(path, &t, &kind) == SLP_OK && kind == SLP_TEXT_AT_NONE && !t,
          "a single-member gzip file is not read at offsets");

    /* a BGZF file cut in a member: the last part's chain runs past the end */
    snprintf(path, sizeof path, "%s/cut.gz", dir);
    write_file(path, SLP_BLOCK_OUT_BGZF, text, n);
    FILE *f = fopen(path, "r+b");
    fseek(f, 0, SEEK_END);
    CHECK(ftruncate(fileno(f), ftell(f) - 100) == 0, "truncate");
    fclose(f);
    t = open_at(path, SLP_TEXT_AT_BGZF);
    slp_text_unit_t *u = NULL;
    int64_t count, first, next, size = slp_text_at_file_size(t);
    CHECK(slp_bgzf_scan(t, size / 2, size, &u, &count, &first, &next) == -1,
          "a cut BGZF file's last part is not a chain");
    slp_text_at_close(&t);

    /* plain text */
    snprintf(path, sizeof path, "%s/plain.mps", dir);
    f = fopen(path, "wb");
    fwrite(text, 1, n, f);
    fclose(f);
    t = open_at(path, SLP_TEXT_AT_PLAIN);
    check_reads(t, text, n, "plain");
    slp_text_at_close(&t);
    free(text);
}

#ifdef SLP_HAVE_ZSTD
static void test_zstd(const char *name, int random_bytes, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.zst", dir, name);
    char *text = text_bytes(n, random_bytes);
    write_file(path, SLP_BLOCK_OUT_ZSTD, text, n);
    /* the zstd library reads it as one stream of frames (the seek table is skipped) */
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    size_t packed = (size_t)ftell(f);
    rewind(f);
    char *in = malloc(packed), *out = malloc(n + 1);
    CHECK(fread(in, 1, packed, f) == packed, "read %s", path);
    fclose(f);
    ZSTD_DStream *z = ZSTD_createDStream();
    ZSTD_inBuffer ib = {in, packed, 0};
    ZSTD_outBuffer ob = {out, n + 1, 0};
    while (ib.pos < ib.size && !ZSTD_isError(ZSTD_decompressStream(z, &ob, &ib)))
        ;
    CHECK(ib.pos == packed && ob.pos == n && memcmp(out, text, n) == 0,
          "%s: zstd reads the bytes written", name);
    ZSTD_freeDStream(z);
    free(in);
    free(out);

    slp_text_at_t *t = open_at(path, SLP_TEXT_AT_ZSTD);
    check_reads(t, text, n, name);
    slp_text_at_close(&t);

    flip_byte(path, 100); /* inside the first frame: its checksum or its data fails */
    t = open_at(path, SLP_TEXT_AT_ZSTD);
    char buf[100];
    CHECK(slp_text_at_read(t, buf, sizeof buf, 10) == -1, "%s: damaged frame read", name);
    CHECK(slp_text_at_read(t, buf, sizeof buf, (int64_t)n - 100) == 100 &&
              memcmp(buf, text + n - 100, 100) == 0,
          "%s: a read of another frame", name);
    slp_text_at_close(&t);

    /* the seek table's magic number gone: a zstd file that is not read at offsets */
    f = fopen(path, "r+b");
    fseek(f, -1, SEEK_END);
    fputc(0, f);
    fclose(f);
    slp_text_at_kind kind;
    CHECK(slp_text_at_open(path, &t, &kind) == SLP_OK && kind == SLP_TEXT_AT_NONE,
          "%s: no seek table", name);
    free(text);
}
#endif

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_bgzf("bgzf-text", 0, 1000000);
    test_bgzf("bgzf-random", 1, 400000);
    test_bgzf("bgzf-small", 0, 1000);
    test_not_splittable();
#ifdef SLP_HAVE_ZSTD
    test_zstd("zstd-text", 0, 3500000);
    test_zstd("zstd-random", 1, 1500000);
#endif
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return check_summary();
}
