/* Reading one CPLEX LP file on every rank (grid/read_parallel.h, docs/parallel-input.md
 * "LP files").
 *
 * Layout: every rank scans 1/P of the text for the lines that start with a section
 * keyword. Pieces: each section's body is cut into P pieces at lines where a statement
 * must start (a sign in the objective, a label among the constraints, any line of the
 * bounds and marker sections), and each rank parses its piece of every section with the
 * LP reader's own grammar (io/lp_pieces.h); a piece that does not parse to its end, a
 * cut the one-process reader would read across, makes the file irregular. Columns are
 * numbered by first appearance over the whole file: every name goes to an owner rank by
 * hash, which finds the first piece to name it; the pieces number the names they
 * introduce, in order, and the owners pass the numbers on. Rows are numbered by piece.
 * Each column then belongs to one rank (an even share of the numbers), which receives its
 * entries, objective terms and bounds and applies them in file order; from there the MPS
 * path's cuts and blocks (grid/read_blocks.c) take over. Whatever the one-process reader
 * would refuse or warn about, and files this scheme does not cut (block comments, more
 * than MAX_MARKS sections), make every rank give up; that reader then reads the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/name_index.h"
#include "core/timer.h"
#include "grid/fault_hook.h"
#include "grid/read_internal.h"
#include "grid/route.h"
#include "io/lp.h"
#include "io/lp_pieces.h"

#define BLOCK ((size_t)1 << 20) /* bytes read at a time by the scans */
#define LOOK 256                /* a line's first bytes that the scans look at */
#define MAX_MARKS 16            /* section lines a rank reports; more: one process reads */

/* ---- the text, read forward in blocks ------------------------------------------- */

typedef struct {
    slp_text_at_t *src;
    int64_t size; /* of the text */
    char *buf;
    int64_t at; /* buf holds [at, at + len) */
    size_t len;
    int failed;
} window_t;

/* The text from x on, with at least min(want, size - x) bytes of it in memory (want <=
 * BLOCK): *avail bytes at the pointer returned; NULL when a read fails. */
static const char *window(window_t *w, int64_t x, size_t want, size_t *avail)
{
    int64_t have_end = w->at + (int64_t)w->len;
    if (x < w->at || x > have_end || (x + (int64_t)want > have_end && have_end < w->size)) {
        size_t n = w->size - x < (int64_t)BLOCK ? (size_t)(w->size - x) : BLOCK;
        if (slp_text_at_read(w->src, w->buf, n, x) != (ssize_t)n) {
            w->failed = 1;
            *avail = 0;
            return NULL;
        }
        w->at = x;
        w->len = n;
    }
    *avail = (size_t)(w->at + (int64_t)w->len - x);
    return w->buf + (x - w->at);
}

/* The first line start after x and at most `end` (the byte before it a newline at or
 * after x), or end. */
static int64_t next_line(window_t *w, int64_t x, int64_t end)
{
    while (x < end) {
        size_t avail;
        const char *p = window(w, x, 1, &avail);
        if (!p)
            return end;
        size_t lim = end - x < (int64_t)avail ? (size_t)(end - x) : avail;
        const char *nl = memchr(p, '\n', lim);
        if (nl)
            return x + (nl - p) + 1;
        x += (int64_t)lim;
    }
    return end;
}

/* The line at x: *p its first non-blank byte, *avail the bytes from there in memory.
 * 0 when the line is blank, or its blanks fill the LOOK bytes (*long_blanks). */
static int line_start(window_t *w, int64_t x, const char **p, size_t *avail, int *long_blanks)
{
    size_t got;
    const char *s = window(w, x, LOOK, &got);
    size_t k = 0, lim = got < LOOK ? got : LOOK;
    while (s && k < lim && s[k] != '\n' && slp_lp_space(s[k])) /* the tokenizer's blanks */
        k++;
    *long_blanks = s && k == LOOK;
    if (!s || k == lim || s[k] == '\n')
        return 0;
    *p = s + k;
    *avail = got - k;
    return 1;
}

/* ---- the layout: section lines ------------------------------------------------ */

typedef struct { /* a line that starts with a section keyword */
    int64_t line, body; /* its start; the byte after the keyword */
    int32_t section, pad;
} mark_t;

typedef struct { /* what one rank found in its share */
    int32_t count, overflow, failed, block_comment;
    mark_t mark[MAX_MARKS];
} marks_t;

typedef struct {
    int count; /* sections before End */
    int32_t kind[MAX_MARKS];
    int64_t body[MAX_MARKS], end[MAX_MARKS];
    int64_t head_end; /* text before the first section */
    int64_t end_line; /* where the End line starts (the text's size: none) */
} layout_t;

/* The section keyword that starts the line at x, noted in *mk. */
static void examine_line(window_t *w, int64_t x, marks_t *mk)
{
    const char *p;
    size_t avail;
    int long_blanks;
    if (!line_start(w, x, &p, &avail, &long_blanks)) {
        mk->overflow |= long_blanks;
        return;
    }
    char word[32];
    size_t n = avail < sizeof word - 1 ? avail : sizeof word - 1;
    memcpy(word, p, n);
    word[n] = '\0';
    size_t used = 0;
    int section = slp_lp_section_at(word, &used);
    if (section == SLP_LP_NONE)
        return;
    if (mk->count == MAX_MARKS) {
        mk->overflow = 1;
        return;
    }
    mk->mark[mk->count++] = (mark_t){x, w->at + (p - w->buf) + (int64_t)used, section, 0};
}

/* The comments that open the file, as modelling tools write them (PuLP's and GLPK's
 * `\* name *\`): blank lines, line comments and block comments that open a line,
 * read as the LP reader's tokenizer reads them, where a block comment's close is followed
 * by nothing but blanks and more comments. Returns where the first other line starts (at
 * most e), or -1 when a block comment does not end so (a statement after its close, or
 * no close before e): the file is then rank 0's. Rank 0 parses this head with the LP
 * grammar (parse_pieces). */
static int64_t leading_comments(window_t *w, int64_t e)
{
    enum { AT_LINE, IN_LINE_COMMENT, IN_BLOCK_COMMENT, AFTER_BLOCK_COMMENT } state = AT_LINE;
    int64_t line = 0;
    for (int64_t x = 0; x < e; x++) {
        size_t avail;
        const char *p = window(w, x, 2, &avail);
        if (!p)
            return -1;
        char ch = p[0], next = avail > 1 && x + 1 < e ? p[1] : '\0';
        if (state == IN_BLOCK_COMMENT) {
            if (ch == '*' && next == '\\') {
                state = AFTER_BLOCK_COMMENT;
                x++;
            }
        } else if (ch == '\n') {
            state = AT_LINE;
            line = x + 1;
        } else if (state == IN_LINE_COMMENT || slp_lp_space(ch)) {
            continue;
        } else if (ch != '\\') { /* text after a block comment's close, or a statement */
            return state == AFTER_BLOCK_COMMENT ? -1 : line;
        } else if (next == '*') {
            state = IN_BLOCK_COMMENT;
            x++;
        } else {
            state = IN_LINE_COMMENT;
        }
    }
    return state == IN_BLOCK_COMMENT || state == AFTER_BLOCK_COMMENT ? -1 : e;
}

/* The section lines that start in [b, e), and whether a block comment opens there
 * (besides those that open the file: leading_comments). */
static void scan_share(window_t *w, int64_t b, int64_t e, marks_t *mk)
{
    memset(mk, 0, sizeof *mk);
    int64_t from = b == 0 ? leading_comments(w, e) : next_line(w, b - 1, e);
    if (from < 0) {
        mk->block_comment = 1;
        return;
    }
    if (b == 0)
        b = from;
    for (int64_t x = from; x < e && !mk->overflow; x = next_line(w, x, e))
        examine_line(w, x, mk);
    for (int64_t x = b; x < e && !w->failed && !mk->block_comment;) { /* "\*" */
        size_t avail;
        const char *p = window(w, x, 2, &avail);
        if (!p)
            break;
        size_t lim = e - x < (int64_t)avail ? (size_t)(e - x) : avail;
        const char *bs = memchr(p, '\\', lim);
        if (!bs) {
            x += (int64_t)lim;
            continue;
        }
        x += bs - p;
        p = window(w, x, 2, &avail);
        mk->block_comment = p && avail >= 2 && p[1] == '*';
        x++;
    }
    mk->failed = w->failed;
}

/* The sections of the file from every rank's marks: each body runs to the next section
 * line; End (and what follows it) ends the last. 0 when the file is not one this reader
 * takes (a block comment, a section it refuses, a second objective, no objective first). */
static int layout_of(const marks_t *all, int P, int64_t size, layout_t *l)
{
    memset(l, 0, sizeof *l);
    int64_t end_at = size;
    mark_t m[MAX_MARKS];
    int count = 0;
    for (int k = 0; k < P; k++) {
        if (all[k].overflow || all[k].failed || all[k].block_comment)
            return 0;
        for (int j = 0; j < all[k].count && end_at == size; j++) {
            if (all[k].mark[j].section == SLP_LP_END)
                end_at = all[k].mark[j].line;
            else if (count == MAX_MARKS)
                return 0;
            else
                m[count++] = all[k].mark[j];
        }
    }
    if (count == 0 || (m[0].section != SLP_LP_MIN && m[0].section != SLP_LP_MAX))
        return 0;
    for (int j = 0; j < count; j++) {
        if (m[j].section == SLP_LP_UNSUPPORTED ||
            (j > 0 && (m[j].section == SLP_LP_MIN || m[j].section == SLP_LP_MAX)))
            return 0;
        l->kind[j] = m[j].section;
        l->body[j] = m[j].body;
        l->end[j] = j + 1 < count ? m[j + 1].line : end_at;
    }
    l->count = count;
    l->head_end = m[0].line;
    l->end_line = end_at;
    return 1;
}

static slp_err find_layout(reader_t *rd, window_t *w, layout_t *l, int *ok)
{
    marks_t mine, *all = malloc(sizeof *all * (size_t)rd->P);
    scan_share(w, w->size * rd->me / rd->P, w->size * (rd->me + 1) / rd->P, &mine);
    slp_err rc = slp_comm_allgather(rd->comm, all ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                                    "memory"), &mine, sizeof mine, all);
    *ok = rc == SLP_OK && layout_of(all, rd->P, w->size, l);
    free(all);
    return rc;
}

/* ---- pieces ------------------------------------------------------------------------ */

/* Whether a statement of `section` must start at the line at x: the tokens the
 * one-process reader reads before it cannot run on into it. */
static int is_cut(window_t *w, int64_t x, int section)
{
    const char *p;
    size_t avail;
    int long_blanks;
    if (!line_start(w, x, &p, &avail, &long_blanks))
        return 0;
    switch (section) {
    case SLP_LP_MIN:
    case SLP_LP_MAX: /* a sign starts a term */
        return *p == '+' || *p == '-';
    case SLP_LP_CONS: { /* a label starts a constraint */
        size_t k = 0;
        while (k < avail && slp_lp_name_char((unsigned char)p[k]))
            k++;
        if (k == 0)
            return 0;
        while (k < avail && (p[k] == ' ' || p[k] == '\t'))
            k++;
        return k < avail && p[k] == ':';
    }
    case SLP_LP_BOUNDS: /* no comparison, whose bound began on the line before */
        return *p != '\\' && *p != '<' && *p != '>' && *p != '=';
    default: /* names of integer markers */
        return 1;
    }
}

/* Where rank k's piece of the section [body, end) starts: the first cut line at or after
 * its share of the bytes (rank 0: the body). */
static int64_t piece_start(window_t *w, int64_t body, int64_t end, int section, int k, int P)
{
    if (k == 0 || body >= end)
        return k == 0 ? body : end;
    int64_t x = next_line(w, body + (end - body) * k / P - 1, end);
    while (x < end && !is_cut(w, x, section) && !w->failed)
        x = next_line(w, x, end);
    return w->failed ? -1 : x;
}

/* Every rank's piece of every section, parsed; rows_in[i] the rows of section i's piece. */
static slp_err parse_pieces(reader_t *rd, window_t *w, slp_lp_pieces_t *pc, const layout_t *l,
                            int64_t *rows_in)
{
    int64_t mine[MAX_MARKS], *all = malloc(sizeof *all * MAX_MARKS * (size_t)rd->P);
    for (int i = 0; i < l->count; i++)
        mine[i] = piece_start(w, l->body[i], l->end[i], l->kind[i], rd->me, rd->P);
    slp_err rc = slp_comm_allgather(rd->comm, all ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                                    "memory"), mine, sizeof mine, all);
    if (rc != SLP_OK) {
        free(all);
        return rc;
    }
    if (rd->me == 0 && l->head_end > 0) /* nothing but comments before the objective */
        rc = slp_lp_pieces_read(pc, 0, l->head_end, -1, SLP_LP_NONE, 0, 0);
    if (rc == SLP_OK && rd->me == 0 && l->end_line < w->size) /* a NUL byte there, say */
        rc = slp_lp_pieces_read(pc, l->end_line, next_line(w, l->end_line, w->size), -1,
                                SLP_LP_END, 0, 0);
    slp_lp_piece_view_t v;
    for (int i = 0; i < l->count && rc == SLP_OK; i++) {
        int64_t lo = all[rd->me * MAX_MARKS + i], hi = l->end[i];
        for (int k = rd->me + 1; k < rd->P && hi == l->end[i]; k++)
            hi = all[k * MAX_MARKS + i] >= 0 ? all[k * MAX_MARKS + i] : hi;
        for (int k = 0; k < rd->P; k++)
            if (all[k * MAX_MARKS + i] < 0)
                slp_read_give_up(rd, "a piece's start could not be read");
        slp_lp_pieces_view(pc, &v);
        int64_t m_before = v.m;
        int objective = l->kind[i] == SLP_LP_MIN || l->kind[i] == SLP_LP_MAX;
        if (lo >= 0 && lo < hi)
            rc = slp_lp_pieces_read(pc, lo, hi, i, l->kind[i], rd->me == 0,
                                    objective && rd->me == 0);
        slp_lp_pieces_view(pc, &v);
        rows_in[i] = v.m - m_before;
    }
    free(all);
    if (rc != SLP_OK) {
        slp_error_clear();
        slp_read_give_up(rd, "a piece the one-process reader would read otherwise, or refuse");
    }
    return rc == SLP_ERR_NOMEM ? slp_error(SLP_ERR_NOMEM, "out of memory") : SLP_OK;
}

/* ---- names at their owners --------------------------------------------------------- */

/* An owner's names: an open-addressing table of group numbers, one group per distinct
 * name, each group's name pointing into the message received; names are compared byte
 * for byte. A slot holds the group's number plus one (0: free) and the hash's high 32
 * bits, so that a probe reads a group's key only when those match (with 4-byte slots
 * every occupied slot passed cost a cache miss on the keys: the grouping took 2.4 times
 * as long); at most 3/4 full, grown as the groups come. Room for the keys of `count`
 * names all distinct (pages touched only as groups come). */
typedef struct {
    uint64_t *slot;
    uint64_t mask;
    struct group_key {
        uint64_t hash;
        const char *name;
        size_t len;
    } *key;
    int failed; /* the table could not grow: out of memory */
} groups_t;

static uint64_t slot_of(uint64_t hash, uint32_t group)
{
    return (hash & 0xffffffff00000000ULL) | ((uint64_t)group + 1);
}

/* Slots for `cap` (a power of 2) with the first `groups` keys in them. */
static int groups_rehash(groups_t *gs, uint64_t cap, int64_t groups)
{
    uint64_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return 0;
    for (int64_t g = 0; g < groups; g++) {
        uint64_t at = gs->key[g].hash & (cap - 1);
        while (slot[at] != 0)
            at = (at + 1) & (cap - 1);
        slot[at] = slot_of(gs->key[g].hash, (uint32_t)g);
    }
    free(gs->slot);
    gs->slot = slot;
    gs->mask = cap - 1;
    return 1;
}

/* Slots at first for a quarter of the names distinct (an LP file names a column in its
 * objective and its rows: few names come fewer than 3 times), then doubled as needed. */
static slp_err groups_open(groups_t *gs, int64_t count)
{
    uint64_t cap = 1024;
    while (cap * 3 < (uint64_t)count) /* 3/4 of cap >= count / 4 */
        cap *= 2;
    gs->key = malloc(sizeof *gs->key * (size_t)(count + 1));
    if (!gs->key || !groups_rehash(gs, cap, 0))
        return SLP_ERR_NOMEM;
    return SLP_OK;
}

/* The group of a name of hash h, a new one (number *groups, then counted) when it is not
 * there; UINT32_MAX and gs->failed when the table is full and cannot grow. */
static uint32_t group_of_name(groups_t *gs, uint64_t h, const char *name, size_t len,
                              int64_t *groups)
{
    if ((uint64_t)(*groups + 1) * 4 > (gs->mask + 1) * 3 &&
        !groups_rehash(gs, 2 * (gs->mask + 1), *groups) && (uint64_t)*groups >= gs->mask) {
        gs->failed = 1;
        return UINT32_MAX;
    }
    uint64_t at = h & gs->mask, tag = h & 0xffffffff00000000ULL;
    for (; gs->slot[at] != 0; at = (at + 1) & gs->mask) {
        if ((gs->slot[at] & 0xffffffff00000000ULL) != tag)
            continue;
        uint32_t g = (uint32_t)(gs->slot[at] & 0xffffffffu) - 1;
        const struct group_key *k = &gs->key[g];
        if (k->hash == h && k->len == len && slp_names_equal(k->name, name, len))
            return g;
    }
    uint32_t g = (uint32_t)(*groups)++;
    gs->key[g] = (struct group_key){h, name, len};
    gs->slot[at] = slot_of(h, g);
    return g;
}

static void groups_close(groups_t *gs)
{
    free(gs->slot);
    free(gs->key);
}

/* ---- rows ---------------------------------------------------------------------------- */

/* Things numbered by piece in file order (section, then rank), count[i] of them in this
 * rank's piece of section i: base[i] the number of its first, *total those of the file.
 * Collective (an allgather of the counts); `local` is this rank's status. */
static slp_err piece_offsets(reader_t *rd, slp_err local, const int64_t count[MAX_MARKS],
                             int sections, int64_t base[MAX_MARKS], int64_t *total)
{
    int64_t *all = malloc(sizeof *all * MAX_MARKS * (size_t)rd->P);
    slp_err rc = slp_comm_allgather(rd->comm, local != SLP_OK ? local : all ? SLP_OK
                                    : slp_error(SLP_ERR_NOMEM, "out of memory"),
                                    count, sizeof(int64_t) * MAX_MARKS, all);
    *total = 0;
    for (int i = 0; rc == SLP_OK && i < sections; i++)
        for (int k = 0; k < rd->P; k++) {
            if (k == rd->me)
                base[i] = *total;
            *total += all[k * MAX_MARKS + i];
        }
    free(all);
    return rc;
}

/* Global row numbers: by piece, in file order. *m the rows of the file. */
static slp_err number_rows(reader_t *rd, const int64_t *rows_in, int sections, int64_t *grow,
                           int64_t *m)
{
    int64_t base[MAX_MARKS] = {0};
    SLP_CALL(piece_offsets(rd, SLP_OK, rows_in, sections, base, m));
    int64_t r = 0;
    for (int i = 0; i < sections; i++)
        for (int64_t t = 0; t < rows_in[i]; t++)
            grow[r++] = base[i] + t;
    return SLP_OK;
}

/* Every row's name, the label or R<i> (*generated: room for it). */
static const char *row_name(const slp_lp_piece_view_t *v, const int64_t *grow, int64_t r,
                            char generated[32])
{
    if (v->row_labels[r])
        return v->row_labels[r];
    snprintf(generated, 32, "R%lld", (long long)grow[r]);
    return generated;
}

/* Every row's name (its label, or R<i>) once in the file: the names go to owners by
 * hash, where a name met again is the one-process reader's "used twice" (it refuses the
 * file). */
static slp_err check_row_names(reader_t *rd, const slp_lp_piece_view_t *v, const int64_t *grow)
{
    slp_outbox_t ob;
    slp_err rc = slp_outbox_open(&ob, rd->P);
    char none = 0; /* name records without a tail */
    for (int64_t r = 0; r < v->m && rc == SLP_OK; r++) {
        char generated[32];
        const char *name = row_name(v, grow, r, generated);
        size_t len = strlen(name);
        rc = slp_outbox_name(&ob, slp_read_owner_of(rd, slp_name_hash(name, len)), name, len,
                             &none, 0);
    }
    char *in = NULL;
    int64_t in_len = 0, n = 0;
    rc = slp_outbox_send(rd, rc, &ob, &in, &in_len);
    for (const char *at = in; rc == SLP_OK && at < in + in_len; n++) {
        size_t len;
        slp_read_take_name(&at, &len, &none, 0);
    }
    groups_t gs = {NULL, 0, NULL, 0};
    if (rc == SLP_OK && groups_open(&gs, n) != SLP_OK)
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    int64_t groups = 0;
    for (const char *at = in; rc == SLP_OK && at < in + in_len;) {
        size_t len;
        const char *name = slp_read_take_name(&at, &len, &none, 0);
        int64_t before = groups;
        group_of_name(&gs, slp_name_hash(name, len), name, len, &groups);
        if (gs.failed) {
            rc = slp_error(SLP_ERR_NOMEM, "out of memory");
        } else if (groups == before) {
            slp_read_give_up(rd, "a constraint name used twice");
            break;
        }
    }
    groups_close(&gs);
    free(in);
    slp_outbox_close(&ob, rd->P);
    return rc;
}

typedef struct {
    int64_t row;
    double lc, uc;
} row_rec_t;

/* Send the name records of *ob (each with its index as an int64 tail) and keep what
 * arrives: (*names)[index - first] for `count` indexes, in rd's store. Collective;
 * `local` is this rank's status. */
static slp_err receive_names(reader_t *rd, slp_err local, slp_outbox_t *ob, int64_t first,
                             int64_t count, char ***names)
{
    char *in = NULL;
    int64_t in_len = 0;
    slp_err rc = slp_outbox_send(rd, local, ob, &in, &in_len);
    slp_outbox_close(ob, rd->P);
    *names = rc == SLP_OK ? calloc((size_t)count + 1, sizeof **names) : NULL;
    if (rc == SLP_OK && !*names)
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    for (const char *at = in; rc == SLP_OK && at < in + in_len;) {
        size_t len;
        int64_t index;
        const char *name = slp_read_take_name(&at, &len, &index, sizeof index);
        (*names)[index - first] = slp_name_store_add(&rd->name_store, name, len, "the names");
        rc = (*names)[index - first] ? SLP_OK : SLP_ERR_NOMEM;
    }
    free(in);
    return slp_comm_agree(rd->comm, rc);
}

/* Every rank gets every row's name (for shards: rd->row_names, in the store). */
static slp_err gather_row_names(reader_t *rd, const slp_lp_piece_view_t *v, const int64_t *grow,
                                int64_t m)
{
    slp_outbox_t ob;
    slp_err rc = slp_outbox_open(&ob, rd->P);
    for (int d = 0; d < rd->P && rc == SLP_OK; d++)
        for (int64_t r = 0; r < v->m && rc == SLP_OK; r++) {
            char generated[32];
            const char *name = row_name(v, grow, r, generated);
            rc = slp_outbox_name(&ob, d, name, strlen(name), &grow[r], sizeof grow[r]);
        }
    return receive_names(rd, rc, &ob, 0, m, &rd->row_names);
}

/* Every rank gets every row's bounds (as the MPS path's head gives them). */
static slp_err gather_rows(reader_t *rd, const slp_lp_piece_view_t *v, const int64_t *grow,
                           int64_t m, slp_mps_result_t *res)
{
    row_rec_t *out = malloc(sizeof *out * (size_t)(v->m * rd->P + 1));
    int *dest = malloc(sizeof *dest * (size_t)(v->m * rd->P + 1));
    res->lc = malloc(sizeof(double) * (size_t)(m + 1));
    res->uc = malloc(sizeof(double) * (size_t)(m + 1));
    slp_err rc = out && dest && res->lc && res->uc ? SLP_OK
                                                   : slp_error(SLP_ERR_NOMEM, "out of memory");
    int64_t at = 0;
    for (int d = 0; rc == SLP_OK && d < rd->P; d++)
        for (int64_t r = 0; r < v->m; r++, at++) {
            out[at] = (row_rec_t){grow[r], v->lc[r], v->uc[r]};
            dest[at] = d;
        }
    row_rec_t *got = NULL;
    int64_t n_got = 0;
    rc = slp_route_records(rd->comm, rc, out, sizeof *out, v->m * rd->P, dest,
                           "parallel read", (void **)&got, &n_got);
    if (rc == SLP_OK && n_got != m)
        rc = slp_error(SLP_ERR_INTERNAL, "parallel read: %lld of %lld rows arrived",
                       (long long)n_got, (long long)m);
    for (int64_t k = 0; rc == SLP_OK && k < n_got; k++) {
        res->lc[got[k].row] = got[k].lc;
        res->uc[got[k].row] = got[k].uc;
    }
    free(got), free(out), free(dest);
    return rc;
}

/* The objective's constant: each rank's constants summed from 0.0 in file order, then
 * the ranks' sums in rank order, which is the file's sum unless a rank after the first
 * with constants has more than one (rare: irregular). */
static slp_err objective_constant(reader_t *rd, const slp_lp_piece_view_t *v,
                                  slp_mps_result_t *res)
{
    double mine[2] = {v->obj_const, (double)v->obj_constants}, *all;
    all = malloc(sizeof mine * (size_t)rd->P);
    slp_err rc = slp_comm_allgather(rd->comm, all ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                                    "memory"), mine, sizeof mine, all);
    if (rc != SLP_OK) {
        free(all);
        return rc;
    }
    double sum = 0.0, seen = 0;
    for (int k = 0; k < rd->P; k++) {
        if (seen > 0 && all[2 * k + 1] > 1)
            slp_read_give_up(rd, "objective constants in two pieces");
        seen += all[2 * k + 1];
        sum += all[2 * k];
    }
    res->obj_const = sum;
    free(all);
    return SLP_OK;
}

/* ---- columns: every mention at its name's owner ------------------------------------ */

typedef struct __attribute__((packed)) { /* a mention on its way to its name's owner,
                                             after the name (18 bytes) */
    uint32_t seq; /* its number on its rank */
    int32_t row;  /* a term's global row; -1: the objective's; -2: a bound or marker;
                     -3: none (the name alone still makes the column) */
    double value;
    uint8_t piece, code;
} mention_t;

typedef struct { /* the same at the owner, with the rank that read it and its group */
    double value;
    uint32_t seq;
    int32_t row;
    uint32_t group;
    uint16_t rank; /* an LP file is read in parallel by at most 65,536 ranks */
    uint8_t piece, code;
} held_t;

#define RELEASE_BYTES ((size_t)1 << 20) /* a buffer read front to back gives back its pages
                                           in steps of this much (slp_release_pages) */

/* Order of the file: piece, rank, then as read. */
static int held_before(const held_t *a, const held_t *b)
{
    if (a->piece != b->piece)
        return a->piece < b->piece;
    if (a->rank != b->rank)
        return a->rank < b->rank;
    return a->seq < b->seq;
}

/* Mention k's use: its term, or its bound or marker, or nothing (a mention has one use at
 * most; the terms and the operations are each in the order of their mentions, and *t and
 * *o step back through them: calls with k decreasing from the last mention, *t and *o
 * from the last term and operation). */
static mention_t use_of(const slp_lp_piece_view_t *v, const int64_t *grow, int64_t k,
                        int64_t *t, int64_t *o)
{
    const slp_triplets_t *tri = v->entries;
    uint8_t piece = (uint8_t)v->col_piece[k];
    if (*t >= 0 && tri->col[*t] == k) {
        int64_t r = tri->row[*t];
        double value = tri->val[(*t)--];
        return (mention_t){(uint32_t)k, r < 0 ? -1 : (int32_t)grow[r], value, piece, 0};
    }
    if (*o >= 0 && v->ops[*o].col == k) {
        const slp_lp_op_t *op = &v->ops[(*o)--];
        return (mention_t){(uint32_t)k, -2, op->value, piece, (uint8_t)op->code};
    }
    return (mention_t){(uint32_t)k, -3, 0.0, piece, 0};
}

#define TRIM_EVERY ((int64_t)1 << 16) /* mentions packed between two trims of the piece */

/* Every mention with its name and use, to the name's owner (sized before it is filled).
 * The records are written from the last mention back, each at the end of what is left
 * of its owner's part, and the piece gives back the memory of what is packed as it goes
 * (slp_lp_pieces_trim): the piece and its packed copy are never both whole
 * (docs/parallel-input.md "LP files"). */
static slp_err pack_mentions(reader_t *rd, slp_lp_pieces_t *pc, const int64_t *grow, char **out,
                             int64_t *per)
{
    slp_lp_piece_view_t v;
    slp_lp_pieces_view(pc, &v);
    int *dest = malloc(sizeof *dest * (size_t)(v.n + 1));
    int64_t *end = calloc((size_t)rd->P + 1, sizeof *end);
    slp_err rc = dest && end ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
    memset(per, 0, sizeof *per * (size_t)rd->P);
    for (int64_t k = 0; rc == SLP_OK && k < v.n; k++) {
        size_t len = strlen(v.col_names[k]);
        dest[k] = slp_read_owner_of(rd, slp_name_hash(v.col_names[k], len));
        per[dest[k]] += (int64_t)(sizeof(uint32_t) + len + sizeof(mention_t));
    }
    for (int d = 0; rc == SLP_OK && d < rd->P; d++) /* where each part ends */
        end[d] = (d > 0 ? end[d - 1] : 0) + per[d];
    if (rc == SLP_OK) { /* the piece's arrays' spare room, before the copy is made */
        slp_lp_pieces_trim(pc, v.n, v.entries->count, v.n_ops);
        slp_lp_pieces_view(pc, &v);
    }
    if (rc == SLP_OK && !(*out = malloc((size_t)end[rd->P - 1] + 1)))
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    int64_t t = v.entries->count - 1, o = v.n_ops - 1;
    for (int64_t k = v.n - 1; rc == SLP_OK && k >= 0; k--) {
        uint32_t len = (uint32_t)strlen(v.col_names[k]);
        mention_t u = use_of(&v, grow, k, &t, &o);
        end[dest[k]] -= (int64_t)(sizeof len + len + sizeof u);
        char *p = *out + end[dest[k]];
        memcpy(p, &len, sizeof len);
        memcpy(p + sizeof len, v.col_names[k], len);
        memcpy(p + sizeof len + len, &u, sizeof u);
        if (k % TRIM_EVERY == 0) {
            slp_lp_pieces_trim(pc, k, t + 1, o + 1);
            slp_lp_pieces_view(pc, &v);
        }
    }
    free(dest);
    free(end);
    return rc;
}

#define SEND_ROUNDS 16 /* the packed mentions go to their owners in this many rounds */

/* The rounds' slices: to rank d, bytes [sent[d], sent[d] + cut[d]) of its part, which
 * starts at at[d] in `out`, copied in rank order into *buf (grown as needed). */
static slp_err round_slices(const reader_t *rd, const char *out, const int64_t *at,
                            const int64_t *sent, const int64_t *cut, char **buf, int64_t *cap)
{
    int64_t bytes = 0;
    for (int d = 0; d < rd->P; d++)
        bytes += cut[d];
    SLP_CALL(slp_grow(buf, cap, bytes + 1, 1, bytes + 1, "the mentions' rounds"));
    bytes = 0;
    for (int d = 0; d < rd->P; d++) {
        memcpy(*buf + bytes, out + at[d] + sent[d], (size_t)cut[d]);
        bytes += cut[d];
    }
    return SLP_OK;
}

/* The packed mentions (per[d] bytes for rank d, in rank order in `out`) to their owners:
 * *in what this rank receives, in sender order, from[s] the bytes from rank s. In
 * SEND_ROUNDS rounds of a 16th of every part, the sent pages of `out` given back after
 * each and the bytes received placed straight into *in, so that the two buffers are
 * never both whole (docs/parallel-input.md "LP files"). Collective; `local` is this
 * rank's status. */
static slp_err send_mentions(reader_t *rd, slp_err local, char *out, const int64_t *per,
                             char **in, int64_t *in_len, int64_t *from)
{
    int P = rd->P;
    int64_t *ones = malloc(sizeof *ones * (size_t)P), *at = calloc((size_t)P + 1, sizeof *at);
    int64_t *sent = calloc((size_t)P, sizeof *sent), *cut = calloc((size_t)P, sizeof *cut);
    int64_t *got = calloc((size_t)P + 1, sizeof *got), *bytes_from = NULL, count = 0;
    int64_t *part = calloc((size_t)P, sizeof *part); /* a round's bytes from each rank */
    slp_err rc = local != SLP_OK ? local : ones && at && sent && cut && got && part ? SLP_OK
                 : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int d = 0; rc == SLP_OK && d < P; d++) {
        ones[d] = 1;
        at[d + 1] = at[d] + per[d];
    }
    rc = slp_comm_agree(rd->comm, rc);
    if (rc == SLP_OK) /* per[d] to rank d: what each rank gets from each */
        rc = slp_comm_exchange(rd->comm, per, ones, sizeof *per, (void **)&bytes_from, &count);
    *in_len = 0;
    for (int s = 0; rc == SLP_OK && s < P; s++) {
        from[s] = bytes_from[s];
        got[s] = *in_len; /* where rank s's bytes go */
        *in_len += bytes_from[s];
    }
    *in = rc == SLP_OK ? malloc((size_t)*in_len + 1) : NULL;
    rc = slp_comm_agree(rd->comm, rc == SLP_OK && !*in ? slp_error(SLP_ERR_NOMEM, "out of "
                        "memory") : rc);
    char *send = NULL, *recv = NULL;
    int64_t send_cap = 0, recv_cap = 0, recv_count = 0;
    for (int r = 0; rc == SLP_OK && r < SEND_ROUNDS; r++) {
        for (int d = 0; d < P; d++) { /* the last round takes what is left */
            int64_t share = (per[d] + SEND_ROUNDS - 1) / SEND_ROUNDS;
            cut[d] = per[d] - sent[d] < share || r == SEND_ROUNDS - 1 ? per[d] - sent[d] : share;
        }
        rc = slp_comm_agree(rd->comm, round_slices(rd, out, at, sent, cut, &send, &send_cap));
        if (rc == SLP_OK)
            rc = slp_comm_exchange_into(rd->comm, send, cut, 1, (void **)&recv, &recv_cap,
                                        &recv_count, part);
        for (int64_t s = 0, x = 0; rc == SLP_OK && s < P; x += part[s++]) {
            memcpy(*in + got[s], recv + x, (size_t)part[s]);
            got[s] += part[s];
        }
        for (int d = 0; rc == SLP_OK && d < P; d++) {
            slp_release_pages(out + at[d] + sent[d], out + at[d] + sent[d] + cut[d]);
            sent[d] += cut[d];
        }
    }
    free(send), free(recv), free(bytes_from);
    free(ones), free(at), free(sent), free(cut), free(got), free(part);
    return rc;
}

/* The owner's part: the mentions of its names by group (one per distinct name), each
 * group's in file order, and each group's first mention. */
typedef struct {
    held_t *held;
    int64_t count, groups;
    int64_t *start;         /* [groups + 1] where each group's mentions start in held */
    struct group_key *name; /* [groups] each group's name, kept for shards (else NULL) */
} owner_t;

/* Groups [base, base + groups) of held[begin[0], begin[groups]) into group order, in
 * place (begin[g - base]: group g's first place): each mention found outside its group's
 * run is swapped into the next free place of its own; next[] is scratch. */
static void order_run(held_t *held, const int64_t *begin, int64_t groups, int64_t base,
                      int64_t *next)
{
    for (int64_t g = 0; g < groups; g++)
        next[g] = begin[g];
    for (int64_t g = 0; g < groups; g++)
        while (next[g] < begin[g + 1]) {
            int64_t h = (int64_t)held[next[g]].group - base;
            if (h == g) {
                next[g]++;
                continue;
            }
            held_t t = held[next[h]];
            held[next[h]++] = held[next[g]];
            held[next[g]] = t;
        }
}

/* Groups are ordered in two steps: the mentions are copied out of the message into at
 * most RUNS runs, run r holding the groups whose number >> run_shift is r (each run
 * filled front to back: RUNS places written at a time), then each run, small enough for
 * the caches, is ordered by group in place (order_run). One pass straight to the
 * groups, every swap a cache and TLB miss, took 7 times as long on a 128 MB LP file. */
#define RUNS 4096 /* at most: 256 made the in-run passes twice as slow, 16,384 gained nothing */

static int run_shift(int64_t groups)
{
    int shift = 0;
    while ((groups - 1) >> shift >= RUNS)
        shift++;
    return shift;
}

/* Group the mentions received (from[s]: where rank s's end) by name, then order them by
 * group (dropping the names, or keeping each group's with keep_names), each group
 * sorted in file order (groups are small). The message gives its pages back as the
 * mentions are taken out of it, unless its names are kept. */
static slp_err owner_take(owner_t *ow, const char *in, int64_t in_len, const int64_t *from,
                          int keep_names)
{
    for (const char *at = in; at < in + in_len; ow->count++) {
        size_t len;
        mention_t u;
        slp_read_take_name(&at, &len, &u, sizeof u);
    }
    if (ow->count >= (int64_t)UINT32_MAX)
        return slp_error(SLP_ERR_INPUT, "parallel read: too many names on one rank; use more "
                         "ranks");
    groups_t gs = {NULL, 0, NULL, 0};
    uint32_t *group_of = malloc(sizeof *group_of * (size_t)(ow->count + 1));
    ow->start = calloc((size_t)ow->count + 2, sizeof *ow->start);
    slp_err rc = group_of && ow->start ? groups_open(&gs, ow->count) : SLP_ERR_NOMEM;
    /* the table's slots are fetched AHEAD mentions before they are probed: a second
     * cursor hashes the names ahead into a ring (hash[k % AHEAD] is mention k's) */
    enum { AHEAD = 16 };
    uint64_t hash[AHEAD];
    const char *ahead = in;
    for (int64_t k = 0; k < AHEAD && k < ow->count; k++) {
        size_t len;
        mention_t u;
        const char *name = slp_read_take_name(&ahead, &len, &u, sizeof u);
        hash[k] = slp_name_hash(name, len);
    }
    int64_t k = 0;
    for (const char *at = in; rc == SLP_OK && at < in + in_len; k++) {
        uint64_t h = hash[k % AHEAD];
        if (ahead < in + in_len) {
            size_t len;
            mention_t u;
            const char *name = slp_read_take_name(&ahead, &len, &u, sizeof u);
            hash[k % AHEAD] = slp_name_hash(name, len);
            __builtin_prefetch(&gs.slot[hash[k % AHEAD] & gs.mask]);
        }
        size_t len;
        mention_t u;
        const char *name = slp_read_take_name(&at, &len, &u, sizeof u);
        group_of[k] = group_of_name(&gs, h, name, len, &ow->groups);
        if (gs.failed)
            rc = SLP_ERR_NOMEM;
        else
            ow->start[group_of[k] + 2]++;
    }
    if (keep_names) { /* they point into `in`, which the caller keeps as long */
        ow->name = gs.key;
        gs.key = NULL;
    }
    groups_close(&gs);
    if (rc == SLP_OK && !(ow->held = malloc(sizeof *ow->held * (size_t)(ow->count + 1))))
        rc = SLP_ERR_NOMEM;
    for (int64_t g = 0; rc == SLP_OK && g < ow->groups; g++) /* start[g + 1]: group g's */
        ow->start[g + 2] += ow->start[g + 1];
    const int64_t *begin = ow->start + 1; /* begin[g]: group g's first place */
    int shift = run_shift(ow->groups);
    int64_t runs = ow->groups > 0 ? ((ow->groups - 1) >> shift) + 1 : 0, run_at[RUNS] = {0};
    for (int64_t r = 0; r < runs; r++)
        run_at[r] = begin[r << shift];
    k = 0;
    int rank = 0;
    const char *released = in;
    for (const char *at = in; rc == SLP_OK && at < in + in_len; k++) {
        while (at - in >= from[rank])
            rank++;
        size_t len;
        mention_t u;
        slp_read_take_name(&at, &len, &u, sizeof u);
        ow->held[run_at[group_of[k] >> shift]++] =
            (held_t){u.value, u.seq, u.row, group_of[k], (uint16_t)rank, u.piece, u.code};
        if (!keep_names && (size_t)(at - released) >= RELEASE_BYTES) {
            slp_release_pages(released, at);
            released = at;
        }
    }
    free(group_of);
    int64_t *next = rc == SLP_OK ? malloc(sizeof *next * ((size_t)1 << shift)) : NULL;
    if (rc == SLP_OK && !next)
        rc = SLP_ERR_NOMEM;
    for (int64_t r = 0; rc == SLP_OK && r < runs; r++) {
        int64_t g0 = r << shift, g1 = (r + 1) << shift < ow->groups ? (r + 1) << shift
                                                                     : ow->groups;
        order_run(ow->held, begin + g0, g1 - g0, g0, next);
    }
    if (rc == SLP_OK)
        memmove(ow->start, ow->start + 1, sizeof *ow->start * (size_t)(ow->groups + 1));
    free(next);
    for (int64_t g = 0; rc == SLP_OK && g < ow->groups; g++)
        for (int64_t a = ow->start[g] + 1; a < ow->start[g + 1]; a++)
            for (int64_t b = a; b > ow->start[g] && held_before(&ow->held[b], &ow->held[b - 1]);
                 b--) {
                held_t t = ow->held[b];
                ow->held[b] = ow->held[b - 1];
                ow->held[b - 1] = t;
            }
    return rc == SLP_OK ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of memory");
}

typedef struct { /* a name's first mention, to the rank that read it */
    int64_t group, seq;
    int32_t piece, owner;
} intro_t;

typedef struct {
    int64_t a, b;
} pair_t;

/* Column numbers: the order of first mention in the file (piece, then rank, then as
 * read). Each owner sends every group's first mention to the rank that read it; each
 * rank numbers its first mentions in order (a rank's mentions, `mentions` of them, are
 * numbered in file order: a sweep over their numbers, no sort), after those of the
 * pieces before (an allgather of counts per piece), and tells the owners. number[g]
 * for the owner's groups; *n the columns of the file. Collective; `local` is this
 * rank's status so far. */
static slp_err number_columns(reader_t *rd, slp_err local, const owner_t *ow, int64_t mentions,
                              int sections, int64_t *number, int64_t *n)
{
    intro_t *out = malloc(sizeof *out * (size_t)(ow->groups + 1)), *in = NULL;
    int *dest = malloc(sizeof *dest * (size_t)(ow->groups + 1));
    slp_err rc = local != SLP_OK  ? local
                 : out && dest    ? SLP_OK
                                  : slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int64_t g = 0; rc == SLP_OK && g < ow->groups; g++) {
        const held_t *first = &ow->held[ow->start[g]];
        out[g] = (intro_t){g, first->seq, first->piece, rd->me};
        dest[g] = first->rank;
    }
    int64_t n_in = 0;
    rc = slp_route_records(rd->comm, rc, out, sizeof *out, ow->groups, dest,
                           "parallel read", (void **)&in, &n_in);
    free(out);
    free(dest);
    uint32_t *at_seq = rc == SLP_OK ? malloc(sizeof *at_seq * (size_t)(mentions + 1)) : NULL;
    if (rc == SLP_OK && !at_seq)
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    if (rc == SLP_OK)
        memset(at_seq, 0xff, sizeof *at_seq * (size_t)mentions);
    for (int64_t k = 0; rc == SLP_OK && k < n_in; k++)
        at_seq[in[k].seq] = (uint32_t)k;
    int64_t cnt[MAX_MARKS] = {0}, next[MAX_MARKS] = {0};
    for (int64_t k = 0; rc == SLP_OK && k < n_in; k++)
        cnt[in[k].piece]++;
    rc = piece_offsets(rd, rc, cnt, sections, next, n);
    pair_t *answer = rc == SLP_OK ? malloc(sizeof *answer * (size_t)(n_in + 1)) : NULL;
    dest = rc == SLP_OK ? malloc(sizeof *dest * (size_t)(n_in + 1)) : NULL;
    if (rc == SLP_OK && (!answer || !dest))
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    for (int64_t s = 0; rc == SLP_OK && s < mentions; s++) {
        uint32_t k = at_seq[s];
        if (k == UINT32_MAX)
            continue;
        answer[k] = (pair_t){in[k].group, next[in[k].piece]++};
        dest[k] = in[k].owner;
    }
    free(in);
    free(at_seq);
    pair_t *got = NULL;
    int64_t n_got = 0;
    rc = slp_route_records(rd->comm, rc, answer, sizeof *answer, n_in, dest,
                           "parallel read", (void **)&got, &n_got);
    for (int64_t k = 0; rc == SLP_OK && k < n_got; k++)
        number[got[k].a] = got[k].b;
    free(got), free(answer), free(dest);
    return rc;
}

typedef struct { /* an entry on its way to its column's rank */
    int32_t col, row; /* the column within that rank's share */
    double val;
} lp_entry_t;

typedef struct { /* a column's values on their way to its rank */
    int32_t col;
    uint8_t is_int, semi, pad[2];
    double c, lv, uv;
} col_rec_t;

/* A group's mentions in file order into its column's values and entries: objective
 * terms summed, bounds and markers applied, a row's terms summed (they are next to each
 * other: a row's mentions come one after the other), as the one-process reader does. */
static void settle_group(const reader_t *rd, const held_t *h, int64_t count, int64_t col,
                         col_rec_t *cv, lp_entry_t *ent, int *ent_dest, int64_t *n_ent)
{
    int d = slp_block_of(rd->col_start, rd->P, col);
    int32_t local = (int32_t)(col - rd->col_start[d]);
    *cv = (col_rec_t){local, 0, 0, {0, 0}, 0.0, 0.0, INFINITY};
    for (int64_t k = 0; k < count; k++) {
        if (h[k].row == -1) {
            cv->c += h[k].value;
        } else if (h[k].row == -2) {
            slp_lp_apply_op(h[k].code, h[k].value, &cv->lv, &cv->uv, &cv->is_int, &cv->semi);
        } else if (h[k].row < 0) {
            continue; /* a name alone */
        } else if (k > 0 && h[k - 1].row == h[k].row) {
            ent[*n_ent - 1].val += h[k].value;
        } else {
            ent[*n_ent] = (lp_entry_t){local, (int32_t)h[k].row, h[k].value};
            ent_dest[(*n_ent)++] = d;
        }
    }
    if (cv->semi) /* as the one-process reader relaxes x in {0} u [l, u] */
        cv->lv = fmin(cv->lv, 0.0);
}

/* Each group's name (kept for shards) to the rank of its column: rd->col_names. */
static slp_err send_column_names(reader_t *rd, const owner_t *ow, const int64_t *number)
{
    slp_outbox_t ob;
    slp_err rc = slp_outbox_open(&ob, rd->P);
    for (int64_t g = 0; g < ow->groups && rc == SLP_OK; g++)
        rc = slp_outbox_name(&ob, slp_block_of(rd->col_start, rd->P, number[g]), ow->name[g].name,
                             ow->name[g].len, &number[g], sizeof number[g]);
    int64_t first = rd->col_start[rd->me];
    return receive_names(rd, rc, &ob, first, rd->col_start[rd->me + 1] - first, &rd->col_names);
}

/* The owner's groups, each settled (settle_group); the values and entries then go to
 * the ranks of their columns. *values and *entries what this rank received. */
static slp_err settle(reader_t *rd, owner_t *ow, const int64_t *number, col_rec_t **values,
                      int64_t *n_values, lp_entry_t **entries, int64_t *n_entries)
{
    int64_t n_ent = 0;
    col_rec_t *cv = malloc(sizeof *cv * (size_t)(ow->groups + 1));
    int *cv_dest = malloc(sizeof *cv_dest * (size_t)(ow->groups + 1));
    lp_entry_t *ent = malloc(sizeof *ent * (size_t)(ow->count + 1));
    int *ent_dest = malloc(sizeof *ent_dest * (size_t)(ow->count + 1));
    slp_err rc = cv && cv_dest && ent && ent_dest ? SLP_OK
                                                  : slp_error(SLP_ERR_NOMEM, "out of memory");
    const held_t *released = ow->held; /* the mentions give their pages back as they go */
    for (int64_t g = 0; rc == SLP_OK && g < ow->groups; g++) {
        settle_group(rd, ow->held + ow->start[g], ow->start[g + 1] - ow->start[g], number[g],
                     &cv[g], ent, ent_dest, &n_ent);
        cv_dest[g] = slp_block_of(rd->col_start, rd->P, number[g]);
        if ((size_t)(ow->held + ow->start[g + 1] - released) * sizeof *released >= RELEASE_BYTES) {
            slp_release_pages(released, ow->held + ow->start[g + 1]);
            released = ow->held + ow->start[g + 1];
        }
    }
    free(ow->held);
    ow->held = NULL;
    rc = slp_route_records(rd->comm, rc, cv, sizeof *cv, ow->groups, cv_dest,
                           "parallel read", (void **)values, n_values);
    free(cv), free(cv_dest);
    rc = slp_route_records(rd->comm, rc, ent, sizeof *ent, n_ent, ent_dest,
                           "parallel read", (void **)entries, n_entries);
    free(ent), free(ent_dest);
    return rc;
}

/* This rank's share of the columns: values into res (c, lv, uv, n_int), entries into
 * rd->ent by column (rd->col_ptr), as the MPS pieces hold them. */
static slp_err place_columns(reader_t *rd, const col_rec_t *values, int64_t n_values,
                             const lp_entry_t *got, int64_t n_got, slp_mps_result_t *res)
{
    int64_t n_mine = rd->col_start[rd->me + 1] - rd->col_start[rd->me];
    res->n = n_mine;
    res->c = malloc(sizeof *res->c * (size_t)(n_mine + 1));
    res->lv = malloc(sizeof *res->lv * (size_t)(n_mine + 1));
    res->uv = malloc(sizeof *res->uv * (size_t)(n_mine + 1));
    rd->col_ptr = calloc((size_t)n_mine + 2, sizeof *rd->col_ptr);
    rd->ent = malloc(sizeof *rd->ent * (size_t)(n_got + 1));
    if (!res->c || !res->lv || !res->uv || !rd->col_ptr || !rd->ent)
        return slp_error(SLP_ERR_NOMEM, "out of memory");
    if (n_values != n_mine)
        return slp_error(SLP_ERR_INTERNAL, "parallel read: %lld of %lld columns arrived",
                         (long long)n_values, (long long)n_mine);
    for (int64_t k = 0; k < n_values; k++) {
        const col_rec_t *v = &values[k];
        res->c[v->col] = v->c;
        res->lv[v->col] = v->lv;
        res->uv[v->col] = v->uv;
        res->n_int += v->is_int;
    }
    int64_t *ptr = rd->col_ptr; /* by column, each column's entries in the order they came */
    for (int64_t k = 0; k < n_got; k++)
        ptr[got[k].col + 2]++;
    for (int64_t j = 0; j < n_mine; j++)
        ptr[j + 2] += ptr[j + 1];
    for (int64_t k = 0; k < n_got; k++)
        rd->ent[ptr[got[k].col + 1]++] = (entry_t){got[k].row, got[k].val};
    rd->n_ent = rd->cap_ent = n_got;
    rd->cols_seen = n_mine;
    rd->cap_col_ptr = n_mine + 2;
    return SLP_OK;
}

/* The columns: mentions to their names' owners (the pieces closed once they are
 * packed), numbers, and each column's values and entries at the rank of its share of the
 * numbers (even shares). */
static slp_err resolve_columns(reader_t *rd, slp_err local, slp_lp_pieces_t **pc,
                               const int64_t *grow, int sections, int names,
                               slp_mps_result_t *res)
{
    slp_lp_piece_view_t v;
    slp_lp_pieces_view(*pc, &v);
    int64_t mentions = v.n; /* the piece shrinks while its mentions are packed */
    char *out = NULL, *in = NULL;
    int64_t *per = malloc(sizeof *per * (size_t)rd->P), in_len = 0, n = 0;
    int64_t *from = calloc((size_t)rd->P, sizeof *from);
    /* slp_fault_nomem: the test hook of tests/mpi/failures.sh */
    slp_err rc = local != SLP_OK ? local : slp_fault_nomem("read-mentions");
    if (rc == SLP_OK && mentions >= (int64_t)UINT32_MAX)
        rc = slp_error(SLP_ERR_INPUT, "parallel read: %lld names in a rank's pieces; use more "
                       "ranks", (long long)mentions);
    if (rc == SLP_OK)
        rc = per && from ? pack_mentions(rd, *pc, grow, &out, per)
                         : slp_error(SLP_ERR_NOMEM, "out of memory");
    slp_lp_pieces_close(pc);
    rc = send_mentions(rd, rc, out, per, &in, &in_len, from);
    free(out);
    free(per);
    for (int k = 1; rc == SLP_OK && k < rd->P; k++) /* counts to ends */
        from[k] += from[k - 1];
    owner_t ow = {NULL, 0, 0, NULL, NULL};
    if (rc == SLP_OK)
        rc = owner_take(&ow, in, in_len, from, names);
    if (!names) /* else the groups' names point into it */
        free(in);
    free(from);
    int64_t *number = rc == SLP_OK ? malloc(sizeof *number * (size_t)(ow.groups + 1)) : NULL;
    if (rc == SLP_OK && !number)
        rc = slp_error(SLP_ERR_NOMEM, "out of memory");
    rc = number_columns(rd, rc, &ow, mentions, sections, number, &n);
    if (rc == SLP_OK && n / rd->P >= INT32_MAX)
        slp_read_give_up(rd, "2^31 columns a rank or more");
    int ok = 0;
    rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, &ok);
    for (int k = 0; rc == SLP_OK && ok && k <= rd->P; k++)
        rd->col_start[k] = n * k / rd->P;
    col_rec_t *values = NULL;
    lp_entry_t *entries = NULL;
    int64_t n_values = 0, n_entries = 0;
    if (rc == SLP_OK && ok && names)
        rc = send_column_names(rd, &ow, number);
    if (names)
        free(in), free(ow.name);
    if (rc == SLP_OK && ok)
        rc = settle(rd, &ow, number, &values, &n_values, &entries, &n_entries);
    if (rc == SLP_OK && ok)
        rc = place_columns(rd, values, n_values, entries, n_entries, res);
    free(values), free(entries), free(number), free(ow.held), free(ow.start);
    return slp_comm_agree(rd->comm, rc);
}

/* ---- the whole read -------------------------------------------------------------- */

/* The model from the pieces: rows numbered and named, every row everywhere, the columns
 * at the ranks of their shares. */
static slp_err assemble(reader_t *rd, slp_lp_pieces_t **pc, const layout_t *l,
                        const int64_t *rows_in, int names, slp_mps_result_t *res)
{
    slp_lp_piece_view_t v;
    slp_lp_pieces_view(*pc, &v);
    int64_t *grow = malloc(sizeof *grow * (size_t)(v.m + 1)), m = 0;
    slp_err rc = slp_comm_agree(rd->comm, grow ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                                "memory"));
    if (rc == SLP_OK)
        rc = number_rows(rd, rows_in, l->count, grow, &m);
    if (rc == SLP_OK && m > INT32_MAX)
        slp_read_give_up(rd, "2^31 rows or more");
    if (rc == SLP_OK)
        rc = check_row_names(rd, &v, grow);
    int ok = 0;
    rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, &ok);
    if (rc == SLP_OK && ok) {
        res->m = m;
        res->sense = l->kind[0] == SLP_LP_MAX ? -1 : 1;
        res->name = slp_strdup("");
        rc = slp_comm_agree(rd->comm, res->name ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                            "memory"));
    }
    if (rc == SLP_OK && ok)
        rc = gather_rows(rd, &v, grow, m, res);
    if (rc == SLP_OK && ok && names)
        rc = gather_row_names(rd, &v, grow, m);
    if (rc == SLP_OK && ok)
        rc = objective_constant(rd, &v, res);
    if (rc == SLP_OK && ok)
        rc = resolve_columns(rd, rc, pc, grow, l->count, names, res);
    free(grow);
    return rc;
}

slp_err slp_read_lp_model(reader_t *rd, const char *path, int relax, int names,
                          slp_mps_result_t *res, int *ok)
{
    *ok = 0;
    window_t w = {rd->src, slp_text_at_size(rd->src), malloc(BLOCK), 0, 0, 0};
    layout_t l;
    int64_t rows_in[MAX_MARKS] = {0};
    slp_lp_pieces_t *pc = NULL;
    slp_err rc = slp_comm_agree(rd->comm, w.buf ? SLP_OK : slp_error(SLP_ERR_NOMEM, "out of "
                                "memory"));
    if (rc == SLP_OK)
        rc = find_layout(rd, &w, &l, ok);
    if (rc == SLP_OK && !*ok)
        slp_read_give_up(rd, "sections this reader does not cut (a block comment, SOS, more "
                             "than 16), or no objective first");
    if (rd->P > UINT16_MAX + 1) /* held_t's rank */
        slp_read_give_up(rd, "more than 65,536 ranks");
    if (rc == SLP_OK)
        rc = slp_read_all_ranks(rd->comm, rc, *ok, ok);
    if (rc == SLP_OK && *ok)
        rc = slp_comm_agree(rd->comm, slp_lp_pieces_open(path, rd->src, &pc));
    rd->t[0] = slp_wall_seconds();
    if (rc == SLP_OK && *ok)
        rc = parse_pieces(rd, &w, pc, &l, rows_in);
    if (rc == SLP_OK && *ok)
        rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    free(w.buf);
    rd->t[1] = slp_wall_seconds();
    if (rc == SLP_OK && *ok)
        rc = assemble(rd, &pc, &l, rows_in, names, res);
    slp_lp_pieces_close(&pc);
    rd->t[2] = slp_wall_seconds();
    if (rc == SLP_OK && *ok)
        rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    if (rc == SLP_OK && *ok) {
        if (!slp_read_model_acceptable(res, relax))
            slp_read_give_up(rd, "integer columns without relax, or values the model check "
                                 "refuses");
        rc = slp_read_all_ranks(rd->comm, rc, !rd->irregular, ok);
    }
    return rc;
}
