/* Section layout and piece starts of a parallel MPS read (grid/read_layout.h). */
#include "grid/read_layout.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


#define SCAN_BLOCK ((size_t)1 << 20)
#define MAX_HEADERS 32 /* header lines one rank reports; more: the file is read by one process */
#define WORD 16
#define TAIL_BUDGET ((int64_t)64 << 20) /* bytes scanned from each end for a quick layout */

typedef struct {
    int64_t offset;
    char word[WORD]; /* the first word, cut to WORD - 1 bytes; "\r" for an odd line */
} header_t;

typedef struct {
    int32_t count, overflow, failed, pad;
    header_t h[MAX_HEADERS];
} headers_t;

static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f'; }

/* The first word of the header line at `offset`; 0 when the line is blank after all
 * (carriage returns only: the reader strips them). */
static int first_word(slp_text_at_t *src, int64_t offset, char word[WORD])
{
    char buf[WORD];
    ssize_t got = slp_text_at_read(src, buf, WORD, offset);
    ssize_t k = 0;
    while (k < got && buf[k] == '\r')
        k++;
    if (k > 0 && (k == got || buf[k] == '\n'))
        return 0;
    if (k > 0) { /* "\rX": a header the one-process reader refuses */
        strcpy(word, "\r");
        return 1;
    }
    while (k < got && k < WORD - 1 && !is_blank(buf[k]) && buf[k] != '\r' && buf[k] != '\n') {
        word[k] = buf[k];
        k++;
    }
    word[k] = '\0';
    return 1;
}

static void note_header(headers_t *hs, int64_t offset)
{
    if (hs->count == MAX_HEADERS) {
        hs->overflow = 1;
        return;
    }
    hs->h[hs->count++].offset = offset;
}

/* Whether buf[i] may start a header line: neither blank, '*' nor a newline. */
static int may_head(char ch) { return !is_blank(ch) && ch != '*' && ch != '\n'; }

/* The header lines of buf[0, len) (the first starting a line when *at_start), noted at
 * pos + their offset; *at_start for the next block. SSE2: 16 bytes at a time, the line
 * starts from the newline mask shifted by one, kept where the byte may start a header:
 * nearly all lines of a file are data lines, so nearly every block has none (a memchr
 * per line was most of the layout's time). */
static void headers_in(const char *buf, size_t len, int64_t pos, int *at_start, headers_t *hs)
{
    size_t i = 0;
    unsigned carry = (unsigned)*at_start; /* the byte before buf[i] is a newline */
#if defined(__SSE2__)
    for (; i + 16 <= len; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(buf + i));
        __m128i no = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))),
                                  _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\v')),
                                               _mm_cmpeq_epi8(x, _mm_set1_epi8('\f'))));
        __m128i nl = _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'));
        no = _mm_or_si128(no, _mm_or_si128(nl, _mm_cmpeq_epi8(x, _mm_set1_epi8('*'))));
        unsigned lines = (unsigned)_mm_movemask_epi8(nl);
        unsigned heads = ((lines << 1) | carry) & ~(unsigned)_mm_movemask_epi8(no) & 0xffffu;
        carry = lines >> 15;
        for (; heads; heads &= heads - 1)
            note_header(hs, pos + (int64_t)(i + (size_t)__builtin_ctz(heads)));
    }
#endif
    for (; i < len; i++) {
        if (carry && may_head(buf[i]))
            note_header(hs, pos + (int64_t)i);
        carry = buf[i] == '\n';
    }
    *at_start = (int)carry;
}

/* The header lines (first byte neither blank, '*' nor a newline) that start in
 * [begin, end). */
static void scan_headers(slp_text_at_t *src, int64_t begin, int64_t end, headers_t *hs)
{
    memset(hs, 0, sizeof *hs);
    char *buf = malloc(SCAN_BLOCK);
    char before = '\n';
    if (!buf || (begin > 0 && slp_text_at_read(src, &before, 1, begin - 1) != 1)) {
        hs->failed = 1;
        free(buf);
        return;
    }
    int at_start = before == '\n';
    for (int64_t pos = begin; pos < end && !hs->overflow;) {
        size_t len = end - pos < (int64_t)SCAN_BLOCK ? (size_t)(end - pos) : SCAN_BLOCK;
        if (slp_text_at_read(src, buf, len, pos) != (ssize_t)len) {
            hs->failed = 1;
            break;
        }
        headers_in(buf, len, pos, &at_start, hs);
        pos += (int64_t)len;
    }
    free(buf);
    int kept = 0;
    for (int k = 0; k < hs->count; k++)
        if (first_word(src, hs->h[k].offset, hs->h[k].word))
            hs->h[kept++] = hs->h[k];
    hs->count = kept;
}

/* The offset after the end of the line at `offset` (the file's size at its end); -1 on a
 * failure or a line longer than the scan buffer. */
static int64_t line_after(slp_text_at_t *src, int64_t offset, int64_t size, char *buf)
{
    ssize_t got = slp_text_at_read(src, buf, SCAN_BLOCK, offset);
    if (got < 0)
        return -1;
    const char *nl = memchr(buf, '\n', (size_t)got);
    if (nl)
        return offset + (nl - buf) + 1;
    return offset + got == size ? size : -1;
}

static int word_is(const header_t *h, const char *w) { return !strcmp(h->word, w); }

/* The layout from the headers in file order; 0 when the file does not have the shape
 * the parallel read takes. */
static int find_sections(slp_text_at_t *src, int64_t size, const header_t *h, int count,
                         slp_read_layout_t *l)
{
    int k = 0;
    while (k < count && !word_is(&h[k], "COLUMNS"))
        k++;
    if (k == count)
        return 0;
    char *buf = malloc(SCAN_BLOCK);
    l->columns_body = buf ? line_after(src, h[k].offset, size, buf) : -1;
    if (l->columns_body < 0) {
        free(buf);
        return 0;
    }
    static const char *const after[] = {"RHS", "RANGES", "BOUNDS", "ENDATA"};
    int64_t at[4] = {-1, -1, -1, -1};
    int next = 0; /* the sections after COLUMNS come in this order, each at most once */
    for (k++; k < count && at[3] < 0; k++) {
        int s = next;
        while (s < 4 && !word_is(&h[k], after[s]))
            s++;
        if (s == 4)
            break;
        at[s] = h[k].offset;
        next = s + 1;
    }
    int ok = at[3] >= 0;
    if (ok) {
        int64_t endata = at[3];
        l->columns_end = at[0] >= 0 ? at[0] : at[1] >= 0 ? at[1] : at[2] >= 0 ? at[2] : endata;
        l->rhs_begin = l->columns_end;
        l->rhs_end = at[2] >= 0 ? at[2] : endata;
        l->bounds_hdr = l->bounds_body = l->rhs_end;
        l->bounds_end = endata;
        if (at[2] >= 0)
            l->bounds_body = line_after(src, at[2], size, buf);
        l->endata_end = line_after(src, endata, size, buf);
        ok = l->bounds_body >= 0 && l->endata_end >= 0;
    }
    free(buf);
    return ok;
}

/* Headers of `part` after those of *hs; 0 when they do not fit. */
static int append_headers(headers_t *hs, const headers_t *part)
{
    if (part->failed || part->overflow || hs->count + part->count > MAX_HEADERS)
        return 0;
    memcpy(hs->h + hs->count, part->h, sizeof *part->h * (size_t)part->count);
    hs->count += part->count;
    return 1;
}

static int has_word(const headers_t *hs, const char *w)
{
    for (int k = 0; k < hs->count; k++)
        if (word_is(&hs->h[k], w))
            return 1;
    return 0;
}

/* The headers from the head and the tail only (one rank): forward from the start to the
 * COLUMNS header, backward from the end to the RHS header, at most TAIL_BUDGET bytes
 * each way. What lies between is taken for COLUMNS, which the pieces then check (a
 * header there makes the file go to one process): in a file whose sections after
 * COLUMNS are RHS, RANGES, BOUNDS once each in order, nothing but COLUMNS data lies
 * there. 0 (then every rank scans its share) without an RHS section, or past the
 * budget. */
static int head_and_tail(slp_text_at_t *src, int64_t size, headers_t *hs)
{
    memset(hs, 0, sizeof *hs);
    headers_t part;
    int64_t pos = 0, hi = size;
    while (pos < size && !has_word(hs, "COLUMNS")) {
        int64_t end = size - pos > (int64_t)SCAN_BLOCK ? pos + (int64_t)SCAN_BLOCK : size;
        scan_headers(src, pos, end, &part);
        if (!append_headers(hs, &part) || end > TAIL_BUDGET)
            return 0;
        pos = end;
    }
    headers_t tail;
    memset(&tail, 0, sizeof tail);
    while (hi > pos && !has_word(&tail, "RHS")) {
        int64_t lo = hi - pos > (int64_t)SCAN_BLOCK ? hi - (int64_t)SCAN_BLOCK : pos;
        scan_headers(src, lo, hi, &part);
        if (!append_headers(&part, &tail) || size - lo > TAIL_BUDGET)
            return 0;
        tail = part; /* this block's headers, then those after it */
        hi = lo;
    }
    return has_word(hs, "COLUMNS") && append_headers(hs, &tail);
}

slp_err slp_read_layout(slp_comm_t *comm, slp_text_at_t *src, int64_t size,
                        slp_read_layout_t *layout, int *usable)
{
    *usable = 0;
    int P = slp_comm_size(comm), me = slp_comm_rank(comm);
    headers_t quick;
    int32_t found = me == 0 && head_and_tail(src, size, &quick);
    SLP_CALL(slp_comm_bcast(comm, &found, sizeof found, 0));
    if (found) {
        SLP_CALL(slp_comm_bcast(comm, &quick, sizeof quick, 0));
        *usable = find_sections(src, size, quick.h, quick.count, layout);
        return SLP_OK;
    }
    headers_t mine;
    scan_headers(src, size * me / P, size * (me + 1) / P, &mine);
    headers_t *all = malloc(sizeof *all * (size_t)P);
    slp_err rc = slp_comm_allgather(comm, all ? SLP_OK : SLP_ERR_NOMEM, &mine, sizeof mine, all);
    int total = 0, bad = 0;
    for (int k = 0; rc == SLP_OK && k < P; k++) {
        total += all[k].count;
        bad |= all[k].overflow | all[k].failed;
    }
    header_t *h = rc == SLP_OK && !bad ? malloc(sizeof *h * (size_t)(total + 1)) : NULL;
    if (h) {
        int n = 0;
        for (int k = 0; k < P; k++)
            for (int j = 0; j < all[k].count; j++)
                h[n++] = all[k].h[j];
        *usable = find_sections(src, size, h, total, layout);
    }
    free(h);
    free(all);
    return rc;
}

/* ---- piece starts --------------------------------------------------------------- */

/* A forward reader of whole lines from the file. */
typedef struct {
    slp_text_at_t *src;
    int64_t pos, end; /* the next byte of the file to read; the end of the range */
    char *buf;
    size_t at, len;   /* unread bytes buf[at, len) */
} lines_t;

/* The next line of the range: *start (its offset) and its first token (blank-separated;
 * empty for blank and comment lines). 0 at the end of the range, -1 on a failure. */
static int next_line(lines_t *ln, int64_t *start, const char **tok, size_t *tok_len)
{
    char *nl = memchr(ln->buf + ln->at, '\n', ln->len - ln->at);
    if (!nl && ln->pos < ln->end) { /* refill behind the unread bytes */
        memmove(ln->buf, ln->buf + ln->at, ln->len - ln->at);
        ln->len -= ln->at;
        ln->at = 0;
        size_t room = SCAN_BLOCK - ln->len;
        size_t want = ln->end - ln->pos < (int64_t)room ? (size_t)(ln->end - ln->pos) : room;
        ssize_t got = slp_text_at_read(ln->src, ln->buf + ln->len, want, ln->pos);
        if (got < 0 || (got == 0 && want > 0))
            return -1;
        ln->pos += got;
        ln->len += (size_t)got;
        nl = memchr(ln->buf, '\n', ln->len);
        if (!nl && ln->pos < ln->end)
            return -1; /* a line longer than the buffer */
    }
    if (ln->at == ln->len)
        return 0;
    char *s = ln->buf + ln->at, *e = nl ? nl : ln->buf + ln->len;
    *start = ln->pos - (int64_t)(ln->len - ln->at);
    ln->at = (size_t)(e - ln->buf) + (nl != NULL);
    *tok_len = 0;
    *tok = s;
    if (*s == '*')
        return 1;
    while (s < e && is_blank(*s))
        s++;
    const char *t = s;
    while (s < e && !is_blank(*s) && *s != '\r')
        s++;
    *tok = t;
    *tok_len = (size_t)(s - t);
    return 1;
}

int64_t slp_read_piece_start(slp_text_at_t *src, int64_t begin, int64_t end, int rank,
                             int ranks, int by_column)
{
    if (rank == 0 || begin >= end)
        return rank == 0 ? begin : end;
    int64_t x = begin + (end - begin) * rank / ranks;
    char before;
    if (slp_text_at_read(src, &before, 1, x - 1) != 1)
        return -1;
    lines_t ln = {src, x, end, malloc(SCAN_BLOCK), 0, 0};
    if (!ln.buf)
        return -1;
    int64_t start = end, line;
    const char *tok, *first = NULL;
    size_t len, first_len = 0;
    int got;
    if (before != '\n' && (got = next_line(&ln, &line, &tok, &len)) <= 0) { /* the rest of a line */
        free(ln.buf);
        return got == 0 ? end : -1;
    }
    char *name = NULL; /* the first token seen, copied (the buffer moves) */
    while ((got = next_line(&ln, &line, &tok, &len)) > 0) {
        if (!by_column) {
            start = line;
            break;
        }
        if (len == 0)
            continue; /* blank or comment line */
        if (!name) {
            name = malloc(len + 1);
            if (!name)
                break;
            memcpy(name, tok, len);
            first_len = len;
            first = name;
            continue;
        }
        if (len != first_len || memcmp(tok, first, len) != 0) {
            start = line;
            break;
        }
    }
    free(name);
    free(ln.buf);
    return got < 0 || (by_column && got > 0 && !name) ? -1 : start;
}
