/* Streaming MPS parser: see mps_parse.h for the API and docs/mps.md for every
 * convention. Layout of this file:
 *   1. line reader (gzip or plain, lines of any length)
 *   2. tokens, numbers and fixed-format fields
 *   3. parser state and growable row/column tables
 *   4. decoding of one data line (free format, then fixed format as fallback)
 *   5. applying a decoded line (the MPS semantics)
 *   6. section headers, the main loop, and the result
 *   7. pieces of a parallel read: the same parser on byte ranges (grid/read_parallel.c)
 *
 * Free versus fixed format: every data line is first split on whitespace. If
 * the tokens do not fit the section (wrong count, a non-number where a value
 * belongs) or name undeclared rows/columns, the line is decoded again from the
 * fixed columns 2-3, 5-12, 15-22, 25-36, 40-47, 50-61, and the fixed reading
 * is used when it is well formed and resolves more names. Names without spaces
 * read the same either way, so files may mix both (netlib/forplan does). */
#include "io/mps_parse.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/interrupt.h"
#include "core/log.h"
#include "core/names.h"
#include "core/name_index.h"
#include "io/text_in.h"

#define HEADER_TOKENS 8 /* tokens looked at on a section header line */
#define MAX_LINE_BYTES ((size_t)1 << 25) /* 32 MiB: a longer "line" is not MPS (or a
                                          * decompression bomb): error, bounded memory */
#define READ_BLOCK ((size_t)1 << 20) /* the first input buffer */
#define NO_NUL ((size_t)-1)
#define MAX_COL_SEARCHES 4096 /* BOUNDS lines' binary searches before the name index */
#define LINE_PAD 64 /* readable bytes after the buffer's data, for tokenize */
#define WARN_SHOWN 5                     /* warnings printed per kind, then counted */

/* Codes stored in the row name index besides constraint indices >= 0. */
#define CODE_UNKNOWN ((int64_t)-1)
#define CODE_OBJ ((int64_t)-2)
#define CODE_DROPPED ((int64_t)-3)

/* Column flags. */
#define CF_LOWER 1u  /* explicit lower bound given */
#define CF_UPPER 2u  /* explicit upper bound given */
#define CF_OBJ 4u    /* objective coefficient given */
/* Row flags. */
#define RF_RHS 1u
#define RF_RANGE 2u

typedef enum {
    SEC_NONE, SEC_NAME, SEC_OBJSENSE, SEC_OBJNAME, SEC_ROWS, SEC_COLUMNS, SEC_RHS,
    SEC_RANGES, SEC_BOUNDS, SEC_END
} section_t;

typedef enum {
    BT_UP, BT_LO, BT_FX, BT_FR, BT_MI, BT_PL, BT_BV, BT_LI, BT_UI
} bound_type_t;

typedef enum {
    W_UNDEF_ROW, W_UNDEF_COL, W_DUP_ENTRY, W_DUP_OBJ, W_DUP_RHS, W_DUP_RANGE, W_DUP_BOUND,
    W_RANGE_N, W_NEG_UP, W_FRAC_INT, W_OTHER_SET, W_SPLIT_COL, W_BOUND_VALUE, W_COUNT
} warn_kind_t;

static const char *const warn_names[W_COUNT] = {
    "entries for undeclared rows ignored", "bounds for unknown columns ignored",
    "duplicate matrix entries ignored", "duplicate objective coefficients ignored",
    "duplicate RHS values ignored", "duplicate RANGES values ignored",
    "duplicate bounds ignored", "RANGES on N rows ignored",
    "negative upper bounds that set the lower bound to -inf",
    "fractional integer bounds", "lines of other RHS/RANGES/BOUNDS sets ignored",
    "columns split over non-adjacent lines", "values on FR/MI/PL/BV bounds ignored"};

typedef struct {
    const char *s;
    size_t len;
} tok_t;

static const tok_t EMPTY_TOK = {"", 0};

/* A token's text for "%.*s". */
#define TOK_ARG(t) (int)(t).len, (t).s

/* One decoded data line. Names are tokens of the current line (no copies), except
 * the ROWS name, which is a C string in the parser's arena. */
typedef struct {
    int unknown;          /* names that did not resolve */
    /* ROWS */
    char type;
    const char *name;
    /* COLUMNS (first = column), RHS/RANGES (first = set name, empty if none) */
    tok_t first;
    int marker;           /* 1 INTORG, 2 INTEND */
    int npairs;
    tok_t *rname;         /* [npairs], the parser's buffers (any number of pairs) */
    int64_t *rcode;
    double *val;
    /* BOUNDS */
    bound_type_t btype;
    tok_t set;
    tok_t col;
    int64_t colidx;
    int has_value;
    double value;
} dline_t;

typedef struct {
    /* input: a text reader, or (a piece of a parallel read) bytes [pos, limit) of src */
    const char *path;
    slp_text_in_t *file;
    slp_text_at_t *src;
    int64_t pos, limit;
    int read_errno;
    slp_mps_bound_fn on_bound; /* pieces: BOUNDS lines go here instead of being applied */
    void *bound_user;
    int irregular; /* pieces: a line the parallel read cannot decide alone */
    int64_t header_lines; /* lines that start without a blank (sections), so far */
    /* The input in blocks: bytes [buf_start, buf_end) of buf are read and not yet
     * consumed; the current line is a part of buf (its end of line replaced by a NUL). */
    char *buf;
    size_t buf_cap, buf_start, buf_end;
    size_t nul_at;   /* offset in buf of the first NUL byte read, or NO_NUL */
    int buf_eof;     /* the input has no more bytes */
    char *line;
    size_t line_len;
    int64_t lineno;
    int quiet;
    const slp_mps_callbacks_t *cb;
    /* tokens and row/value pairs of the current data line (grown to the longest line) */
    tok_t *tok;
    int tok_cap;
    tok_t *pair_name;
    int64_t *pair_code;
    double *pair_val;
    int pair_cap;
    /* the pairs of the fixed-format reading of the same line (at most 2) */
    tok_t fixed_name[2];
    int64_t fixed_code[2];
    double fixed_val[2];
    /* scratch for decoded names */
    char *arena;
    size_t arena_cap, arena_used;
    char msg[512]; /* error text of the last failed decode (without path:line) */
    /* sections */
    section_t section;
    int seen_rows, seen_columns, objsense_pending, objname_pending;
    char *objname;  /* from OBJNAME, or NULL */
    /* rows */
    slp_name_index_t *rows;
    int64_t m, row_cap;
    char **row_names;
    char *row_type;
    double *rhs, *range;
    unsigned char *row_flags;
    int64_t *row_last_col; /* last column with an entry in this row (+1), for duplicates */
    int64_t n_dropped_n, n_dropped_entries;
    /* columns */
    slp_name_index_t *cols;
    int64_t n, col_cap;
    char **col_names;
    slp_name_store_t row_store, col_store; /* where row_names and col_names point */
    int is_piece;              /* a piece of a parallel read: the names stay with it, else
                                * finish packs them into the result (slp_names_pack), and
                                * its bounds arrays are made at its first bound only */
    double *c, *lv, *uv;
    unsigned char *col_flags, *is_int;
    int cols_in_order;   /* every column name came after the one before (name_after), and
                          * the index `cols` holds none of them yet (index_columns) */
    int64_t col_hint;    /* find_column: the column after the last one found */
    int64_t col_searches; /* find_column: binary searches so far */
    int64_t cur_col;     /* column of the current COLUMNS run, or -1 */
    size_t cur_col_len;  /* the length of its name */
    size_t last_col_len; /* the length of column n-1's name */
    int in_int_block;
    int64_t first_marker_col; /* columns before the first MARKER line, -1 before one */
    int64_t nnz;
    /* sets */
    char *set_name[3]; /* RHS, RANGES, BOUNDS: the first set seen */
    /* result */
    char *name;
    char *obj_name;
    size_t obj_len; /* its length */
    int sense;
    int sense_given;      /* an OBJSENSE was read (a second one is an error) */
    double obj_const;
    int has_obj_const;
    int64_t warn_count[W_COUNT];
} parser_t;

/* ---------------------------------------------------------------------------
 * 1. line reader
 * ------------------------------------------------------------------------- */

/* A SIGINT/SIGTERM stops the reading (docs/reliability.md). */
static int interrupted(parser_t *p, slp_err *err)
{
    if (!slp_interrupt_pending())
        return 0;
    *err = slp_error(SLP_ERR_IO, "%s:%lld: interrupted by signal %d while reading", p->path,
                     (long long)p->lineno + 1, slp_interrupt_signal());
    return 1;
}

/* A failed read: a cut or damaged compressed file, or the read itself. */
static slp_err read_failure(parser_t *p, slp_text_status st, const char *why)
{
    if (st == SLP_TEXT_TRUNCATED)
        return slp_error(SLP_ERR_IO, "%s:%lld: unexpected end of compressed data (truncated "
                         "file?)", p->path, (long long)p->lineno + 1);
    return slp_error(SLP_ERR_IO, "%s:%lld: read error: %s", p->path, (long long)p->lineno + 1,
                     why);
}

/* Up to size bytes of the input: from the text reader, or from the piece's byte range. */
static size_t read_input(parser_t *p, char *dst, size_t size)
{
    if (p->file)
        return slp_text_in_read(p->file, dst, size);
    int64_t left = p->limit - p->pos;
    size_t want = (int64_t)size < left ? size : (size_t)left;
    ssize_t got = slp_text_at_read(p->src, dst, want, p->pos);
    if (got < (ssize_t)want) { /* a read error, or the file became shorter */
        p->read_errno = got < 0 ? errno : EIO;
        return 0;
    }
    p->pos += got;
    return (size_t)got;
}

/* More input after the unconsumed bytes, which move to the front of the buffer (grown
 * when they fill it: a line longer than the block). Sets buf_eof at the end of the
 * input; a failed or interrupted read is an error at the line being read. */
static slp_err refill(parser_t *p)
{
    size_t kept = p->buf_end - p->buf_start;
    memmove(p->buf, p->buf + p->buf_start, kept);
    if (p->nul_at != NO_NUL)
        p->nul_at -= p->buf_start;
    p->buf_start = 0;
    p->buf_end = kept;
    memset(p->buf + kept, 0, LINE_PAD);
    if (kept + 1 >= p->buf_cap) { /* one byte stays free for the last line's NUL */
        if (p->buf_cap >= MAX_LINE_BYTES)
            return slp_error(SLP_ERR_INPUT, "%s:%lld: line longer than %zu bytes", p->path,
                             (long long)p->lineno + 1, MAX_LINE_BYTES);
        char *bigger = realloc(p->buf, 2 * p->buf_cap + LINE_PAD);
        if (!bigger)
            return slp_error(SLP_ERR_NOMEM, "out of memory reading a line of %s", p->path);
        p->buf = bigger;
        p->buf_cap *= 2;
    }
    size_t got = read_input(p, p->buf + kept, p->buf_cap - 1 - kept);
    if (got == 0) {
        slp_err err;
        if (interrupted(p, &err)) /* a read cut short by the signal */
            return err;
        const char *why = NULL;
        slp_text_status st = p->file ? slp_text_in_status(p->file, &why) : SLP_TEXT_OK;
        if (!p->file && p->read_errno)
            st = SLP_TEXT_IO, why = strerror(p->read_errno);
        if (st != SLP_TEXT_OK)
            return read_failure(p, st, why);
        p->buf_eof = 1;
        return SLP_OK;
    }
    if (p->nul_at == NO_NUL) {
        const char *nul = memchr(p->buf + kept, '\0', got);
        if (nul)
            p->nul_at = (size_t)(nul - p->buf);
    }
    p->buf_end = kept + got;
    memset(p->buf + p->buf_end, 0, LINE_PAD); /* what columns_run's loads see past the data */
    return SLP_OK;
}

/* The next line in p->line (NUL-terminated, without its end-of-line characters).
 * Returns 1 for a line, 0 at the end of the input or on an error (*err). */
static int read_line(parser_t *p, slp_err *err)
{
    *err = SLP_OK;
    if (interrupted(p, err))
        return 0;
    size_t scanned = 0; /* bytes after buf_start known to hold no newline */
    char *nl;
    for (;;) {
        char *start = p->buf + p->buf_start;
        size_t avail = p->buf_end - p->buf_start;
        nl = memchr(start + scanned, '\n', avail - scanned);
        if (nl || p->buf_eof)
            break;
        scanned = avail;
        if ((*err = refill(p)) != SLP_OK)
            return 0;
    }
    char *line = p->buf + p->buf_start;
    size_t end = nl ? (size_t)(nl - p->buf) : p->buf_end;
    if (!nl && end == p->buf_start)
        return 0; /* the end of the input */
    if (p->nul_at != NO_NUL && p->nul_at < end) {
        *err = slp_error(SLP_ERR_INPUT, "%s:%lld: NUL byte in the line (not a text file?)",
                         p->path, (long long)p->lineno + 1);
        return 0;
    }
    p->buf_start = nl ? end + 1 : end;
    size_t len = end - (size_t)(line - p->buf);
    while (len > 0 && line[len - 1] == '\r')
        len--;
    line[len] = '\0'; /* over the newline, a carriage return, or the free byte at the end */
    if (p->lineno == 0 && len >= 3 && !memcmp(line, "\xEF\xBB\xBF", 3)) { /* UTF-8 BOM */
        line += 3;
        len -= 3;
    }
    p->line = line;
    p->line_len = len;
    p->lineno++;
    return 1;
}

/* ---------------------------------------------------------------------------
 * 2. tokens, numbers and fixed fields
 * ------------------------------------------------------------------------- */

static int is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f'; }

#if defined(__SSE2__)
/* Bit k set where byte k of s[0..63] is a blank or lies at or past len. Reads 64 bytes:
 * the line buffer has LINE_PAD readable bytes after every line. */
static uint64_t blank_bits(const char *s, size_t len)
{
    uint64_t bits = 0;
    for (int part = 0; part < 4; part++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * part));
        __m128i b = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                                 _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
        b = _mm_or_si128(b, _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\v')),
                                         _mm_cmpeq_epi8(x, _mm_set1_epi8('\f'))));
        bits |= (uint64_t)(uint16_t)_mm_movemask_epi8(b) << (16 * part);
    }
    if (len < 64)
        bits |= ~(uint64_t)0 << len;
    return bits;
}

/* Split on blanks, 64 bytes at a time: a token starts at a non-blank after a blank and
 * ends at the next blank, found from the bit masks with one count of trailing zeros per
 * token boundary instead of a branch per byte (the byte loop was a tenth of the parse of
 * a large file, mostly mispredicted branches). Returns the number of tokens; only the
 * first `max` are stored. s must have LINE_PAD readable bytes after len. */
static int tokenize(const char *s, size_t len, tok_t *tok, int max)
{
    int count = 0, in_token = 0;
    size_t start = 0;
    uint64_t prev_blank = 1; /* the line starts after a blank */
    for (size_t base = 0; base < len; base += 64) {
        uint64_t blank = blank_bits(s + base, len - base);
        uint64_t after_blank = (blank << 1) | prev_blank;
        uint64_t starts = ~blank & after_blank, ends = blank & ~after_blank;
        prev_blank = blank >> 63;
        for (;;) { /* starts and ends alternate */
            uint64_t *next = in_token ? &ends : &starts;
            if (!*next)
                break;
            size_t at = base + (size_t)__builtin_ctzll(*next);
            *next &= *next - 1;
            if (!in_token) {
                start = at;
            } else {
                if (count < max)
                    tok[count] = (tok_t){s + start, at - start};
                count++;
            }
            in_token = !in_token;
        }
    }
    if (in_token) { /* a token up to a multiple of 64 bytes */
        if (count < max)
            tok[count] = (tok_t){s + start, len - start};
        count++;
    }
    return count;
}
#else
/* is_blank as a table, for the tokenizer's inner loops. */
static const unsigned char BLANK[256] = {[' '] = 1, ['\t'] = 1, ['\v'] = 1, ['\f'] = 1};

/* Split on blanks. Returns the number of tokens; only the first `max` are stored. */
static int tokenize(const char *s, size_t len, tok_t *tok, int max)
{
    int count = 0;
    size_t k = 0;
    while (k < len) {
        while (k < len && BLANK[(unsigned char)s[k]])
            k++;
        if (k >= len)
            break;
        size_t start = k;
        while (k < len && !BLANK[(unsigned char)s[k]])
            k++;
        if (count < max) {
            tok[count].s = s + start;
            tok[count].len = k - start;
        }
        count++;
    }
    return count;
}
#endif

/* Fixed-format field `f` (1..6) of the current line, trimmed of blanks. */
static tok_t fixed_field(const parser_t *p, int f)
{
    static const int first[7] = {0, 2, 5, 15, 25, 40, 50};
    static const int last[7] = {0, 3, 12, 22, 36, 47, 61};
    tok_t t = {p->line, 0};
    size_t a = (size_t)first[f] - 1, b = (size_t)last[f];
    if (a >= p->line_len)
        return t;
    if (b > p->line_len)
        b = p->line_len;
    while (a < b && is_blank(p->line[a]))
        a++;
    while (b > a && is_blank(p->line[b - 1]))
        b--;
    t.s = p->line + a;
    t.len = b - a;
    return t;
}

/* Fixed format only fits when nothing is written between or after the fields
 * (columns 1, 4, 13-14, 23-24, 37-39, 48-49 and beyond 61 blank): otherwise a
 * free-format line could be cut into wrong fields. A '$' in field 5 starts a
 * comment (the standard's rule), so the line is then checked up to column 39. */
static int fixed_gaps_blank(const parser_t *p)
{
    static const int gap_first[7] = {1, 4, 13, 23, 37, 48, 62};
    static const int gap_last[7] = {1, 4, 14, 24, 39, 49, 1 << 30};
    size_t end = p->line_len;
    if (end >= 40 && p->line[39] == '$')
        end = 39;
    for (int g = 0; g < 7; g++)
        for (size_t k = (size_t)gap_first[g] - 1; k < (size_t)gap_last[g] && k < end; k++)
            if (!is_blank(p->line[k]))
                return 0;
    return 1;
}

static int tok_is(tok_t t, const char *word)
{
    size_t n = strlen(word);
    return t.len == n && memcmp(t.s, word, n) == 0;
}

/* Exact powers of ten as doubles (10^22 is the last one a double holds exactly). */
static const double EXACT_POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
/* Exact powers of ten as x87 long doubles (64-bit significand: 5^27 < 2^64). */
static const long double EXACT_POW10_LD[28] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* Numbers of up to 19 significant digits (M < 10^19 < 2^64) with |e| <= 27, where
 * Clinger's path does not reach (the 17-digit values modelling tools write): M and 10^|e|
 * are exact long doubles, so M * 10^e or M / 10^-e is the exact value v rounded once to
 * 64 bits, r. Rounding r to a double rounds v correctly unless r lies within one unit of
 * its last place of a double's halfway point (the 11 bits below the double's 53 are
 * 0x3ff, 0x400 or 0x401): only then can v and r lie on different sides of it, and strtod
 * decides. Returns 0 for those and for exponents out of range. */
static int extended_number(uint64_t mant, int exp10, double *out)
{
    if (mant == 0 || exp10 < -27 || exp10 > 27)
        return 0;
    long double m = (long double)mant, p = EXACT_POW10_LD[exp10 < 0 ? -exp10 : exp10];
    long double r = exp10 < 0 ? m / p : m * p;
    uint64_t significand; /* the x87 format's first 8 bytes: the 64-bit significand */
    memcpy(&significand, &r, sizeof significand);
    uint64_t below = significand & 0x7ff;
    if (below >= 0x3ff && below <= 0x401)
        return 0;
    *out = (double)r;
    return 1;
}
#else
static int extended_number(uint64_t mant, int exp10, double *out)
{
    (void)mant, (void)exp10, (void)out;
    return 0; /* no x87 long double here: strtod */
}
#endif

/* The 8 bytes at s are all decimal digits: their value in *out (SWAR: the digits of a
 * little-endian word combined in pairs, then fours, then the eight). */
static int eight_digits(const char *s, uint64_t *out)
{
    uint64_t w;
    memcpy(&w, s, 8);
    if (((w & 0xF0F0F0F0F0F0F0F0ULL) | (((w + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) !=
        0x3333333333333333ULL)
        return 0;
    w -= 0x3030303030303030ULL;
    w = (w * 10) + (w >> 8);
    w = (((w & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((w >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    *out = w;
    return 1;
}

/* The common case without strtod, exactly as strtod rounds it (Clinger's fast path): a
 * decimal whose significant digits form an integer M <= 2^53 with a power of ten 10^e,
 * |e| <= 22, is M * 10^e or M / 10^-e in one correctly rounded operation on two exact
 * doubles. Grammar: [+-] digits [. digits] [(e|E|d|D) [+-] digits], at least one digit
 * before the exponent. Up to 19 significant digits or |e| up to 27 go to
 * extended_number. Returns 0 for anything else (the caller then runs the full reader,
 * which also rejects what is not a number). */
static int fast_number(const char *s, size_t len, double *out)
{
    if (len == 1 && s[0] >= '0' && s[0] <= '9') { /* the commonest coefficient: 1 */
        *out = (double)(s[0] - '0');
        return 1;
    }
    size_t k = 0;
    int negative = 0;
    if (k < len && (s[k] == '+' || s[k] == '-'))
        negative = s[k++] == '-';
    uint64_t mant = 0;
    int digits = 0, significant = 0, exp10 = 0, seen_point = 0;
    for (; k < len; k++) {
        uint64_t eight;
        if (mant != 0 && significant + 8 <= 19 && k + 8 <= len && eight_digits(s + k, &eight)) {
            mant = 100000000 * mant + eight;
            digits += 8;
            significant += 8;
            exp10 -= 8 * seen_point;
            k += 7;
            continue;
        }
        char ch = s[k];
        if (ch >= '0' && ch <= '9') {
            digits++;
            if (mant == 0 && ch == '0') { /* a leading zero: no significant digit */
                exp10 -= seen_point;
                continue;
            }
            if (++significant > 19)
                return 0;
            mant = 10 * mant + (uint64_t)(ch - '0');
            exp10 -= seen_point;
        } else if (ch == '.' && !seen_point) {
            seen_point = 1;
        } else {
            break;
        }
    }
    if (digits == 0)
        return 0;
    if (k < len) {
        if (s[k] != 'e' && s[k] != 'E' && s[k] != 'd' && s[k] != 'D')
            return 0;
        k++;
        int exp_negative = 0;
        if (k < len && (s[k] == '+' || s[k] == '-'))
            exp_negative = s[k++] == '-';
        int e = 0, exp_digits = 0;
        for (; k < len && s[k] >= '0' && s[k] <= '9'; k++, exp_digits++) {
            if (e > 10000)
                return 0;
            e = 10 * e + (s[k] - '0');
        }
        if (exp_digits == 0 || k < len)
            return 0;
        exp10 += exp_negative ? -e : e;
    }
    double v;
    if (mant > (1ULL << 53) || exp10 < -22 || exp10 > 22) {
        if (!extended_number(mant, exp10, &v))
            return 0;
        *out = negative ? -v : v;
        return 1;
    }
    v = (double)mant;
    v = exp10 < 0 ? v / EXACT_POW10[-exp10] : v * EXACT_POW10[exp10];
    *out = negative ? -v : v;
    return 1;
}

int slp_mps_parse_number(const char *text, size_t len, double *out)
{
    if (fast_number(text, len, out))
        return 1;
    char buf[128];
    if (len == 0 || len >= sizeof buf)
        return 0;
    size_t k = 0;
    if (text[0] == '+' || text[0] == '-')
        k = 1;
    if (k >= len || !(isdigit((unsigned char)text[k]) || text[k] == '.'))
        return 0; /* rejects nan, inf, infinity, empty mantissas */
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == 'd' || ch == 'D')
            ch = 'e';
        else if (!(isdigit((unsigned char)ch) || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' ||
                   ch == '-'))
            return 0; /* also rejects hexadecimal floats */
        buf[i] = ch;
    }
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + len || isnan(v))
        return 0;
    *out = v;
    return 1;
}

/* The number at p as strtod reads it, and *end past it (p when there is none): a plain
 * decimal (digits, a point, an exponent) through the exact path above, which gives
 * strtod's bits; anything else (hexadecimal, a lone point) through strtod itself. */
double slp_parse_number_prefix(const char *p, char **end)
{
    const char *q = p;
    size_t digits = 0;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
        return strtod(p, end);
    for (; isdigit((unsigned char)*q); q++)
        digits++;
    if (*q == '.')
        for (q++; isdigit((unsigned char)*q); q++)
            digits++;
    if (digits == 0)
        return strtod(p, end);
    if (*q == 'e' || *q == 'E') { /* an exponent only with digits, as strtod takes it */
        const char *e = q + 1 + (q[1] == '+' || q[1] == '-');
        if (isdigit((unsigned char)*e)) {
            while (isdigit((unsigned char)*e))
                e++;
            q = e;
        }
    }
    double v;
    if (slp_mps_parse_number(p, (size_t)(q - p), &v)) {
        *end = (char *)(uintptr_t)q;
        return v;
    }
    return strtod(p, end);
}

/* Why a token is not a number, for the message. */
static const char *number_problem(tok_t t)
{
    size_t k = (t.len > 0 && (t.s[0] == '+' || t.s[0] == '-')) ? 1 : 0;
    if (t.len >= k + 3 && (!strncasecmp(t.s + k, "nan", 3) ||
                           !strncasecmp(t.s + k, "inf", 3)))
        return "is not a finite number";
    return "is not a number";
}

/* ---------------------------------------------------------------------------
 * 3. parser state
 * ------------------------------------------------------------------------- */

static void warn_at(parser_t *p, warn_kind_t kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning of a counted kind: the first WARN_SHOWN are printed with path:line,
 * the rest are summed up at the end of the file. */
static void warn_at(parser_t *p, warn_kind_t kind, const char *fmt, ...)
{
    if (p->warn_count[kind]++ >= WARN_SHOWN || p->quiet)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    slp_warn("%s:%lld: %s\n", p->path, (long long)p->lineno, text);
}

static slp_err input_error(parser_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static slp_err input_error(parser_t *p, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return slp_error(SLP_ERR_INPUT, "%s:%lld: %s", p->path, (long long)p->lineno, text);
}

/* Record why a decode failed (used only if no other reading of the line works). */
static int decode_fail(parser_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int decode_fail(parser_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->msg, sizeof p->msg, fmt, ap);
    va_end(ap);
    return 0;
}

/* Copy a token into the arena as a C string (the arena is reset per decode and
 * sized for the whole line, so this cannot run out). */
static const char *arena_str(parser_t *p, tok_t t)
{
    char *s = p->arena + p->arena_used;
    memcpy(s, t.s, t.len);
    s[t.len] = '\0';
    p->arena_used += t.len + 1;
    return s;
}

static slp_err arena_reset(parser_t *p)
{
    size_t need = 4 * p->line_len + 256; /* strip, free and fixed decodes */
    if (need > p->arena_cap) {
        char *bigger = realloc(p->arena, need);
        if (!bigger)
            return slp_error(SLP_ERR_NOMEM, "out of memory parsing %s", p->path);
        p->arena = bigger;
        p->arena_cap = need;
    }
    p->arena_used = 0;
    return SLP_OK;
}

static slp_err grow(void *ptr_to_array, int64_t count, size_t elem)
{
    void **array = ptr_to_array;
    void *bigger = realloc(*array, (size_t)count * elem);
    if (!bigger)
        return slp_error(SLP_ERR_NOMEM, "out of memory growing MPS tables to %lld entries",
                         (long long)count);
    *array = bigger;
    return SLP_OK;
}

static slp_err add_row(parser_t *p, const char *name, char type)
{
    if (p->m == p->row_cap) {
        int64_t cap = p->row_cap ? 2 * p->row_cap : 1024;
        SLP_CALL(grow(&p->row_names, cap, sizeof(char *)));
        SLP_CALL(grow(&p->row_type, cap, 1));
        SLP_CALL(grow(&p->rhs, cap, sizeof(double)));
        SLP_CALL(grow(&p->range, cap, sizeof(double)));
        SLP_CALL(grow(&p->row_flags, cap, 1));
        SLP_CALL(grow(&p->row_last_col, cap, sizeof(int64_t)));
        p->row_cap = cap;
    }
    int64_t i = p->m;
    size_t len = strlen(name);
    p->row_names[i] = slp_name_store_add(&p->row_store, name, len, p->path); /* no malloc */
    if (!p->row_names[i])
        return SLP_ERR_NOMEM;
    p->m++;
    p->row_type[i] = type;
    p->rhs[i] = 0.0;
    p->range[i] = 0.0;
    p->row_flags[i] = 0;
    p->row_last_col[i] = 0;
    return SLP_OK;
}

int slp_mps_name_order(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen != blen)
        return alen < blen ? -1 : 1;
    if (alen > 32) {
        int c = memcmp(a, b, alen);
        return (c > 0) - (c < 0);
    }
    for (size_t k = 0; k < alen; k++) /* short names: without the call of memcmp */
        if (a[k] != b[k])
            return (unsigned char)a[k] < (unsigned char)b[k] ? -1 : 1;
    return 0;
}

/* name comes after the C string s (slp_mps_name_order). */
static int name_after(tok_t name, const char *s)
{
    return slp_mps_name_order(name.s, name.len, s, strlen(s)) > 0;
}

static slp_err add_col(parser_t *p, tok_t name, int64_t *out)
{
    if (p->n == p->col_cap) {
        int64_t cap = p->col_cap ? 2 * p->col_cap : 1024;
        SLP_CALL(grow(&p->col_names, cap, sizeof(char *)));
        SLP_CALL(grow(&p->c, cap, sizeof(double)));
        if (p->lv) { /* else every column has the default bounds so far (column_bounds) */
            SLP_CALL(grow(&p->lv, cap, sizeof(double)));
            SLP_CALL(grow(&p->uv, cap, sizeof(double)));
        }
        SLP_CALL(grow(&p->col_flags, cap, 1));
        SLP_CALL(grow(&p->is_int, cap, 1));
        p->col_cap = cap;
    }
    int64_t j = p->n;
    p->col_names[j] = slp_name_store_add(&p->col_store, name.s, name.len, p->path);
    if (!p->col_names[j])
        return SLP_ERR_NOMEM;
    p->last_col_len = name.len;
    p->n++;
    p->c[j] = 0.0;
    if (p->lv) {
        p->lv[j] = 0.0;
        p->uv[j] = INFINITY;
    }
    p->col_flags[j] = 0;
    p->is_int[j] = (unsigned char)(p->in_int_block ? 1 : 0);
    if (p->cb && p->cb->on_column)
        SLP_CALL(p->cb->on_column(p->cb->user, j, p->col_names[j], p->is_int[j]));
    *out = j;
    return SLP_OK;
}

/* Column j is named `name` (strncmp stops at the end of a shorter stored name). */
static int column_is(const parser_t *p, int64_t j, tok_t name)
{
    return !strncmp(p->col_names[j], name.s, name.len) && p->col_names[j][name.len] == '\0';
}

/* Binary search over columns named in increasing order (cols_in_order). */
static int64_t search_ordered(const parser_t *p, tok_t name)
{
    int64_t lo = 0, hi = p->n; /* the name, if there, is in [lo, hi) */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (column_is(p, mid, name))
            return mid;
        if (name_after(name, p->col_names[mid]))
            lo = mid + 1;
        else
            hi = mid;
    }
    return CODE_UNKNOWN;
}

/* The column names into the index, when they are still only in col_names (docs/mps.md,
 * "Reading speed"): names that come in increasing order (shorter first, then by bytes:
 * the order of generated names) need no index to tell that they are new, nor to be
 * found again (find_column), so a file whose names all come in order never builds one.
 * The first name out of order, or too many BOUNDS lines that miss find_column's guess,
 * build it here, in order (the index takes such names without a probe). */
static slp_err index_columns(parser_t *p)
{
    if (!p->cols_in_order || !p->cols)
        return SLP_OK;
    for (int64_t j = 0; j < p->n; j++)
        SLP_CALL(slp_name_index_insert_n(p->cols, p->col_names[j], strlen(p->col_names[j]), j,
                                         NULL, NULL));
    p->cols_in_order = 0;
    return SLP_OK;
}

/* The column of a name, or CODE_UNKNOWN. BOUNDS lines mostly name columns in file
 * order, so the column after the last one found is tried first; while the names are in
 * order and not indexed, a binary search over them finds any other (data_line builds
 * the index after MAX_COL_SEARCHES of them); else the index. */
static int64_t find_column(parser_t *p, tok_t name)
{
    int64_t j = p->col_hint;
    if (j >= p->n || !column_is(p, j, name)) {
        if (p->cols_in_order) {
            p->col_searches++;
            j = search_ordered(p, name);
        } else {
            j = slp_name_index_find_n(p->cols, name.s, name.len);
        }
    }
    if (j >= 0)
        p->col_hint = j + 1;
    return j;
}

/* Row code of a name: >= 0 constraint, CODE_OBJ, CODE_DROPPED, CODE_UNKNOWN. */
static int64_t row_code(parser_t *p, tok_t name)
{
    /* the objective row first: it is named on many COLUMNS lines (every column's cost) */
    if (p->obj_name && name.len == p->obj_len && slp_names_equal(p->obj_name, name.s, name.len))
        return CODE_OBJ;
    return slp_name_index_find_n(p->rows, name.s, name.len);
}

/* ---------------------------------------------------------------------------
 * 4. decoding one data line
 * ------------------------------------------------------------------------- */

/* Free format: drop trailing comments. A token at position >= min_fields that
 * starts with '$', or with '*' and is not a declared row name, starts a
 * comment (Xpress/CPLEX style inline comments; test.mps uses names like *OBJ*). */
static int strip_comment(parser_t *p, tok_t *tok, int ntok, int min_fields, int names_are_rows)
{
    for (int k = min_fields; k < ntok; k++) {
        if (tok[k].len == 0)
            continue;
        if (tok[k].s[0] == '$')
            return k;
        if (tok[k].s[0] == '*') {
            if (names_are_rows && row_code(p, tok[k]) != CODE_UNKNOWN)
                continue;
            return k;
        }
    }
    return ntok;
}

static int decode_number(parser_t *p, tok_t t, double *out, const char *what)
{
    if (t.len == 0)
        return decode_fail(p, "missing %s", what);
    if (!slp_mps_parse_number(t.s, t.len, out))
        return decode_fail(p, "%s '%.*s' %s", what, (int)(t.len > 60 ? 60 : t.len), t.s,
                           number_problem(t));
    return 1;
}

static int decode_rows(parser_t *p, const tok_t *tok, int ntok, dline_t *d)
{
    if (ntok != 2)
        return decode_fail(p, "ROWS line needs a type (N, E, L, G) and a name");
    if (tok[0].len != 1)
        return decode_fail(p, "unknown row type '%.*s' (expected N, E, L or G)",
                           (int)(tok[0].len > 20 ? 20 : tok[0].len), tok[0].s);
    char type = (char)toupper((unsigned char)tok[0].s[0]);
    if (type != 'N' && type != 'E' && type != 'L' && type != 'G')
        return decode_fail(p, "unknown row type '%c' (expected N, E, L or G)", tok[0].s[0]);
    d->type = type;
    d->name = arena_str(p, tok[1]);
    return 1;
}

/* Row/value pairs from tok[0..2*npairs-1]. */
static int decode_pairs(parser_t *p, const tok_t *tok, int npairs, dline_t *d)
{
    d->npairs = npairs; /* the buffers hold ntok / 2 + 2 pairs (decode_line) */
    for (int k = 0; k < npairs; k++) {
        d->rname[k] = tok[2 * k];
        d->rcode[k] = row_code(p, d->rname[k]);
        if (d->rcode[k] == CODE_UNKNOWN)
            d->unknown++;
        if (!decode_number(p, tok[2 * k + 1], &d->val[k], "value"))
            return 0;
    }
    return 1;
}

static int decode_marker(parser_t *p, tok_t kind, dline_t *d)
{
    if (tok_is(kind, "'INTORG'"))
        d->marker = 1;
    else if (tok_is(kind, "'INTEND'"))
        d->marker = 2;
    else
        return decode_fail(p, "unknown MARKER '%.*s' (expected 'INTORG' or 'INTEND')",
                           (int)(kind.len > 30 ? 30 : kind.len), kind.s);
    return 1;
}

static int decode_columns_free(parser_t *p, const tok_t *tok, int ntok, dline_t *d)
{
    if (ntok >= 2 && tok_is(tok[1], "'MARKER'")) {
        if (ntok < 3)
            return decode_fail(p, "MARKER line without 'INTORG' or 'INTEND'");
        return decode_marker(p, tok[2], d);
    }
    if (ntok > 1 && ntok % 2 == 0)
        return decode_fail(p, "COLUMNS line needs a column name and row/value pairs "
                              "(%d fields: a value is missing)", ntok);
    d->first = tok[0];
    return decode_pairs(p, tok + 1, (ntok - 1) / 2, d);
}

static int decode_columns_fixed(parser_t *p, dline_t *d)
{
    tok_t f[7];
    for (int k = 1; k <= 6; k++)
        f[k] = fixed_field(p, k);
    if (tok_is(f[3], "'MARKER'"))
        return decode_marker(p, f[5], d);
    if (f[2].len == 0 || f[3].len == 0)
        return decode_fail(p, "fixed-format COLUMNS line without column or row name");
    tok_t pairs[4] = {f[3], f[4], f[5], f[6]};
    int npairs = (f[5].len || f[6].len) ? 2 : 1;
    d->first = f[2];
    return decode_pairs(p, pairs, npairs, d);
}

static int decode_rhs_free(parser_t *p, const tok_t *tok, int ntok, dline_t *d)
{
    if (ntok < 2)
        return decode_fail(p, "line needs a row name and a value");
    int has_set = ntok % 2;
    if (has_set)
        d->first = tok[0];
    return decode_pairs(p, tok + has_set, (ntok - has_set) / 2, d);
}

static int decode_rhs_fixed(parser_t *p, dline_t *d)
{
    tok_t f[7];
    for (int k = 1; k <= 6; k++)
        f[k] = fixed_field(p, k);
    if (f[3].len == 0)
        return decode_fail(p, "fixed-format line without a row name");
    tok_t pairs[4] = {f[3], f[4], f[5], f[6]};
    d->first = f[2];
    return decode_pairs(p, pairs, (f[5].len || f[6].len) ? 2 : 1, d);
}

static int bound_type(tok_t t, bound_type_t *out)
{
    static const char *const names[] = {"UP", "LO", "FX", "FR", "MI", "PL", "BV", "LI", "UI"};
    if (t.len != 2)
        return 0;
    char up[3] = {(char)toupper((unsigned char)t.s[0]), (char)toupper((unsigned char)t.s[1]), 0};
    for (int k = 0; k < 9; k++)
        if (!strcmp(up, names[k])) {
            *out = (bound_type_t)k;
            return 1;
        }
    return 0;
}

static int bound_needs_value(bound_type_t t)
{
    return t == BT_UP || t == BT_LO || t == BT_FX || t == BT_LI || t == BT_UI;
}

static int decode_bound_type(parser_t *p, tok_t t, dline_t *d)
{
    if (bound_type(t, &d->btype))
        return 1;
    if (t.len == 2 && (toupper((unsigned char)t.s[0]) == 'S') &&
        (toupper((unsigned char)t.s[1]) == 'C' || toupper((unsigned char)t.s[1]) == 'I'))
        return decode_fail(p, "bound type %.2s (semi-%s) is not supported: shardlp solves "
                              "linear programs only", t.s,
                           toupper((unsigned char)t.s[1]) == 'C' ? "continuous" : "integer");
    return decode_fail(p, "unknown bound type '%.*s' (expected UP, LO, FX, FR, MI, PL, BV, LI "
                          "or UI)", (int)(t.len > 20 ? 20 : t.len), t.s);
}

static void resolve_bound_col(parser_t *p, tok_t col, dline_t *d)
{
    d->col = col;
    if (p->on_bound) { /* a piece: the name is resolved by the parallel read */
        d->colidx = 0;
        return;
    }
    d->colidx = find_column(p, col);
    if (d->colidx < 0)
        d->unknown++;
}

static int decode_bounds_free(parser_t *p, const tok_t *tok, int ntok, dline_t *d)
{
    if (ntok < 2)
        return decode_fail(p, "BOUNDS line needs a type and a column name");
    if (!decode_bound_type(p, tok[0], d))
        return 0;
    int rest = ntok - 1;
    const tok_t *r = tok + 1;
    if (bound_needs_value(d->btype)) {
        if (rest == 2) { /* no set name */
            resolve_bound_col(p, r[0], d);
            d->has_value = 1;
            return decode_number(p, r[1], &d->value, "bound value");
        }
        if (rest == 3) {
            d->set = r[0];
            resolve_bound_col(p, r[1], d);
            d->has_value = 1;
            return decode_number(p, r[2], &d->value, "bound value");
        }
        return decode_fail(p, "BOUNDS line of type %.2s needs [set] column value", tok[0].s);
    }
    if (rest == 1) {
        resolve_bound_col(p, r[0], d);
        return 1;
    }
    if (rest == 2) {
        /* "MI col value" or "MI set col": prefer the reading whose column exists. */
        double v;
        int number = slp_mps_parse_number(r[1].s, r[1].len, &v);
        if (number && p->on_bound) {
            p->irregular = 1; /* which reading depends on columns another rank may hold */
            number = 0;
        }
        if (number && find_column(p, r[0]) >= 0) {
            resolve_bound_col(p, r[0], d);
            d->has_value = 1;
            d->value = v;
            return 1;
        }
        d->set = r[0];
        resolve_bound_col(p, r[1], d);
        return 1;
    }
    if (rest == 3) {
        d->set = r[0];
        resolve_bound_col(p, r[1], d);
        d->has_value = 1;
        return decode_number(p, r[2], &d->value, "bound value");
    }
    return decode_fail(p, "BOUNDS line has too many fields");
}

static int decode_bounds_fixed(parser_t *p, dline_t *d)
{
    tok_t type = fixed_field(p, 1), set = fixed_field(p, 2), col = fixed_field(p, 3),
          val = fixed_field(p, 4);
    if (!decode_bound_type(p, type, d))
        return 0;
    if (col.len == 0)
        return decode_fail(p, "fixed-format BOUNDS line without a column name");
    d->set = set;
    resolve_bound_col(p, col, d);
    if (val.len || bound_needs_value(d->btype)) {
        d->has_value = 1;
        return decode_number(p, val, &d->value, "bound value");
    }
    return 1;
}

/* Decode the current data line for the current section: free format first,
 * fixed format when the free reading fails or leaves names unresolved. */
/* Room for the tokens of the current line and its row/value pairs. */
static slp_err line_buffers(parser_t *p, int ntok)
{
    if (ntok > p->tok_cap) {
        tok_t *t = realloc(p->tok, (size_t)ntok * sizeof *t);
        if (!t)
            return input_error(p, "out of memory for %d fields", ntok);
        p->tok = t;
        p->tok_cap = ntok;
    }
    int pairs = ntok / 2 + 2;
    if (pairs > p->pair_cap) {
        tok_t *name = realloc(p->pair_name, (size_t)pairs * sizeof *name);
        if (name)
            p->pair_name = name;
        int64_t *code = realloc(p->pair_code, (size_t)pairs * sizeof *code);
        if (code)
            p->pair_code = code;
        double *val = realloc(p->pair_val, (size_t)pairs * sizeof *val);
        if (val)
            p->pair_val = val;
        if (!name || !code || !val)
            return input_error(p, "out of memory for %d fields", ntok);
        p->pair_cap = pairs;
    }
    return SLP_OK;
}

/* An empty decoded line over the given pair buffers. Field by field: a memset of the
 * whole struct was 7% of the parse of a large file (a `rep stos` per line). */
static void init_dline(dline_t *d, tok_t *names, int64_t *codes, double *vals)
{
    d->unknown = 0;
    d->type = 0;
    d->name = NULL;
    d->first = d->set = d->col = EMPTY_TOK;
    d->marker = 0;
    d->npairs = 0;
    d->rname = names;
    d->rcode = codes;
    d->val = vals;
    d->btype = BT_UP;
    d->colidx = -1;
    d->has_value = 0;
    d->value = 0.0;
}

static slp_err decode_line(parser_t *p, dline_t *d)
{
    SLP_CALL(arena_reset(p));
    int cap = p->tok_cap;
    int ntok = tokenize(p->line, p->line_len, p->tok, cap);
    SLP_CALL(line_buffers(p, ntok));
    if (ntok > cap) /* a line with more fields than any before: tokenize it again */
        tokenize(p->line, p->line_len, p->tok, p->tok_cap);
    tok_t *tok = p->tok;
    int min_fields = 2, rows_names = 0;
    switch (p->section) {
    case SEC_COLUMNS: min_fields = 3; rows_names = 1; break;
    case SEC_RHS:
    case SEC_RANGES: rows_names = 1; break;
    case SEC_BOUNDS: min_fields = 3; break;
    default: break;
    }
    ntok = strip_comment(p, tok, ntok, min_fields, rows_names);

    init_dline(d, p->pair_name, p->pair_code, p->pair_val);
    p->msg[0] = '\0';
    int ok = 0;
    switch (p->section) {
    case SEC_ROWS: ok = decode_rows(p, tok, ntok, d); break;
    case SEC_COLUMNS: ok = decode_columns_free(p, tok, ntok, d); break;
    case SEC_RHS:
    case SEC_RANGES: ok = decode_rhs_free(p, tok, ntok, d); break;
    case SEC_BOUNDS: ok = decode_bounds_free(p, tok, ntok, d); break;
    default: return input_error(p, "unexpected data line");
    }
    if (ok && d->unknown == 0)
        return SLP_OK;

    /* Try the fixed columns. */
    char free_msg[sizeof p->msg];
    memcpy(free_msg, p->msg, sizeof free_msg);
    if (!fixed_gaps_blank(p)) {
        if (ok)
            return SLP_OK;
        return input_error(p, "%s", free_msg);
    }
    dline_t fixed;
    init_dline(&fixed, p->fixed_name, p->fixed_code, p->fixed_val);
    int fok = 0;
    switch (p->section) {
    case SEC_ROWS: {
        tok_t f[2] = {fixed_field(p, 1), fixed_field(p, 2)};
        fok = f[0].len > 0 && f[1].len > 0 && decode_rows(p, f, 2, &fixed);
        break;
    }
    case SEC_COLUMNS: fok = decode_columns_fixed(p, &fixed); break;
    case SEC_RHS:
    case SEC_RANGES: fok = decode_rhs_fixed(p, &fixed); break;
    case SEC_BOUNDS: fok = decode_bounds_fixed(p, &fixed); break;
    default: break;
    }
    if (fok && (!ok || fixed.unknown < d->unknown)) {
        *d = fixed;
        return SLP_OK;
    }
    if (ok)
        return SLP_OK; /* free reading with unresolved names: warned when applied */
    return input_error(p, "%s", free_msg);
}

/* The tokens of a common COLUMNS line: a column name and one or two row/value pairs,
 * no MARKER, nothing strip_comment might take for a comment. */
static int common_columns_shape(const tok_t *tok, int ntok)
{
    if ((ntok != 3 && ntok != 5) || tok[1].s[0] == '\'')
        return 0;
    return ntok == 3 || (tok[3].s[0] != '$' && tok[3].s[0] != '*');
}

/* The common COLUMNS line, decoded without the general path's steps: free format, the
 * common shape, every row declared and every value a number. Returns 0 for any other
 * line, which decode_line then reads (to the same dline_t when the line is one of
 * these). */
static int decode_columns_common(parser_t *p, dline_t *d)
{
    tok_t tok[6];
    int ntok = tokenize(p->line, p->line_len, tok, 6);
    if (!common_columns_shape(tok, ntok))
        return 0;
    init_dline(d, p->fixed_name, p->fixed_code, p->fixed_val); /* room for 2 pairs */
    d->first = tok[0];
    return decode_pairs(p, tok + 1, ntok / 2, d) && d->unknown == 0;
}

/* ---------------------------------------------------------------------------
 * 5. applying decoded lines
 * ------------------------------------------------------------------------- */

static slp_err apply_row(parser_t *p, const dline_t *d)
{
    if (p->seen_columns)
        return input_error(p, "ROWS data after the COLUMNS section");
    int64_t code;
    if (d->type == 'N') {
        int is_obj = p->objname ? !strcmp(p->objname, d->name) : !p->obj_name;
        if (is_obj && p->obj_name)
            return input_error(p, "objective row '%s' declared twice", d->name);
        code = is_obj ? CODE_OBJ : CODE_DROPPED;
    } else {
        code = p->m;
    }
    int inserted = 0;
    SLP_CALL(slp_name_index_insert(p->rows, d->name, code, &inserted, NULL));
    if (!inserted)
        return input_error(p, "row '%s' declared twice", d->name);
    if (code == CODE_OBJ) {
        p->obj_name = slp_strdup(d->name);
        if (!p->obj_name)
            return SLP_ERR_NOMEM;
        p->obj_len = strlen(d->name);
        if (p->cb && p->cb->on_row)
            SLP_CALL(p->cb->on_row(p->cb->user, SLP_MPS_OBJ_ROW, d->name, 'N'));
    } else if (code == CODE_DROPPED) {
        p->n_dropped_n++;
    } else {
        SLP_CALL(add_row(p, d->name, d->type));
        if (p->cb && p->cb->on_row)
            SLP_CALL(p->cb->on_row(p->cb->user, code, d->name, d->type));
    }
    return SLP_OK;
}

/* The column of a COLUMNS line named `name`: the current one, or the column of that
 * name (a split column, merged with a warning), or a new one. */
static slp_err enter_column(parser_t *p, tok_t name, int64_t *out)
{
    int64_t j = p->cur_col;
    if (j >= 0 && name.len == p->cur_col_len && slp_names_equal(p->col_names[j], name.s, name.len)) {
        *out = j;
        return SLP_OK;
    }
    /* a name after every name so far is new (index_columns); else one probe of the index:
     * the name goes in as column n unless it is there (a piece of a parallel read has no
     * index: a name seen before becomes a second column, and the read's directory of
     * names finds the pair) */
    int inserted = 1;
    if (!p->cols_in_order ||
        (p->n > 0 && slp_mps_name_order(name.s, name.len, p->col_names[p->n - 1],
                                         p->last_col_len) <= 0)) {
        SLP_CALL(index_columns(p));
        p->cols_in_order = 0;
        if (p->cols)
            SLP_CALL(slp_name_index_insert_n(p->cols, name.s, name.len, p->n, &inserted, &j));
    }
    if (!inserted) {
        warn_at(p, W_SPLIT_COL, "column '%.*s' continues after other columns: entries merged",
                TOK_ARG(name));
        if (p->in_int_block)
            p->is_int[j] = 1;
    } else {
        SLP_CALL(add_col(p, name, &j));
    }
    p->cur_col = j;
    p->cur_col_len = name.len;
    *out = j;
    return SLP_OK;
}

/* One entry of column j: row code `code` (named rname), value v. */
static slp_err apply_entry(parser_t *p, int64_t j, int64_t code, tok_t rname, double v)
{
    const char *cn = p->col_names[j];
    if (code == CODE_UNKNOWN) {
        warn_at(p, W_UNDEF_ROW, "row '%.*s' in COLUMNS is not declared in ROWS: entry ignored",
                TOK_ARG(rname));
        return SLP_OK;
    }
    if (code == CODE_DROPPED) {
        p->n_dropped_entries++;
        return SLP_OK;
    }
    if (fabs(v) >= SLP_MPS_INF)
        return input_error(p, "coefficient %g of column '%s' in row '%.*s' is infinite "
                              "(|value| >= 1e20)", v, cn, TOK_ARG(rname));
    if (code == CODE_OBJ) {
        if (p->col_flags[j] & CF_OBJ) {
            warn_at(p, W_DUP_OBJ, "column '%s' has a second objective coefficient %g: "
                                  "ignored (first one kept)", cn, v);
            return SLP_OK;
        }
        p->col_flags[j] |= CF_OBJ;
        p->c[j] = v;
        return SLP_OK;
    }
    if (p->row_last_col[code] == j + 1) {
        warn_at(p, W_DUP_ENTRY, "column '%s' has a second entry %g in row '%.*s': ignored "
                                "(first one kept)", cn, v, TOK_ARG(rname));
        return SLP_OK;
    }
    p->row_last_col[code] = j + 1;
    p->nnz++;
    if (p->cb && p->cb->on_entry)
        SLP_CALL(p->cb->on_entry(p->cb->user, j, code, v));
    return SLP_OK;
}

static slp_err apply_columns(parser_t *p, const dline_t *d)
{
    if (d->marker) {
        p->in_int_block = d->marker == 1;
        p->cur_col = -1;
        if (p->first_marker_col < 0)
            p->first_marker_col = p->n;
        return SLP_OK;
    }
    int64_t j;
    SLP_CALL(enter_column(p, d->first, &j));
    for (int k = 0; k < d->npairs; k++)
        SLP_CALL(apply_entry(p, j, d->rcode[k], d->rname[k], d->val[k]));
    return SLP_OK;
}

#if defined(__SSE2__)
/* Masks of the 16 bytes at s: blanks (space, tab), newlines, and the characters the
 * fast COLUMNS loop leaves to the general path (carriage return, vertical tab, form
 * feed: a line with one is read by read_line and the tokenizer as before). */
static void masks16(const char *s, unsigned *blank, unsigned *newline, unsigned *other)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i bl = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                              _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
    __m128i ot = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')),
                              _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\v')),
                                           _mm_cmpeq_epi8(x, _mm_set1_epi8('\f'))));
    *blank = (unsigned)_mm_movemask_epi8(bl);
    *newline = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
    *other = (unsigned)_mm_movemask_epi8(ot);
}

/* The same masks of the 64 bytes at s, 16 bytes at a time until a newline is seen (a
 * COLUMNS line is mostly 20 to 40 bytes). */
static void line_masks(const char *s, uint64_t *blank, uint64_t *newline, uint64_t *other)
{
    uint64_t b = 0, n = 0, o = 0;
    for (int part = 0; part < 4 && !n; part++) {
        unsigned pb, pn, po;
        masks16(s + 16 * part, &pb, &pn, &po);
        b |= (uint64_t)pb << (16 * part);
        n |= (uint64_t)pn << (16 * part);
        o |= (uint64_t)po << (16 * part);
    }
    *blank = b;
    *newline = n;
    *other = o;
}

/* The tokens of a line of len < 64 bytes from its blank mask: their number, stored, or
 * max + 1 when there are more than max. */
static int tokens_of_mask(const char *s, uint64_t blank, size_t len, tok_t *tok, int max)
{
    blank |= ~(uint64_t)0 << len;
    uint64_t after_blank = (blank << 1) | 1;
    uint64_t starts = ~blank & after_blank, ends = blank & ~after_blank;
    int count = 0;
    for (; starts && count < max; count++) { /* no popcount: not in baseline x86-64 */
        size_t a = (size_t)__builtin_ctzll(starts), b = (size_t)__builtin_ctzll(ends);
        tok[count] = (tok_t){s + a, b - a};
        starts &= starts - 1;
        ends &= ends - 1;
    }
    return starts ? max + 1 : count;
}

/* The common COLUMNS lines straight from the input block (docs/mps.md, "Reading
 * speed"): a line of under 64 bytes that starts with a blank and holds a column name
 * and one or two pairs of a declared row and a number, with nothing the general path
 * would read differently (a MARKER, a comment, a carriage return, a NUL in the block),
 * is decoded from the masks of its bytes (line_masks) and applied as apply_columns would,
 * without read_line, the tokenizer and the decoded-line record. The loop stops at the
 * first other line, before consuming it, and at the end of the block's complete lines:
 * read_line and data_line take it from there. */
static slp_err columns_run(parser_t *p)
{
    if (p->nul_at != NO_NUL)
        return SLP_OK;
    for (;;) {
        const char *s = p->buf + p->buf_start;
        size_t avail = p->buf_end - p->buf_start;
        uint64_t blank, newline, other;
        line_masks(s, &blank, &newline, &other);
        if (!newline || !(blank & 1))
            return SLP_OK; /* a long line, a header, a comment */
        size_t len = (size_t)__builtin_ctzll(newline);
        if (len >= avail || (other & ((1ULL << len) - 1)) || (p->lineno == 0))
            return SLP_OK;
        tok_t tok[5];
        int ntok = tokens_of_mask(s, blank, len, tok, 5);
        if (!common_columns_shape(tok, ntok))
            return SLP_OK;
        int npairs = ntok / 2;
        int64_t code[2];
        double val[2];
        for (int k = 0; k < npairs; k++) {
            code[k] = row_code(p, tok[1 + 2 * k]);
            if (code[k] == CODE_UNKNOWN || !slp_mps_parse_number(tok[2 + 2 * k].s,
                                                                  tok[2 + 2 * k].len, &val[k]))
                return SLP_OK;
        }
        p->buf_start += len + 1;
        p->lineno++;
        int64_t j;
        SLP_CALL(enter_column(p, tok[0], &j));
        for (int k = 0; k < npairs; k++)
            SLP_CALL(apply_entry(p, j, code[k], tok[1 + 2 * k], val[k]));
    }
}
#else
static slp_err columns_run(parser_t *p)
{
    (void)p;
    return SLP_OK;
}
#endif

/* Sets: only the first RHS / RANGES / BOUNDS set is used. */
static slp_err use_set(parser_t *p, int which, tok_t set, int *use)
{
    *use = 1;
    if (set.len == 0) /* a line without a set name belongs to every set (as HiGHS reads it) */
        return SLP_OK;
    char *first = p->set_name[which];
    if (!first) {
        first = p->set_name[which] = slp_malloc(set.len + 1);
        if (!first)
            return SLP_ERR_NOMEM;
        memcpy(first, set.s, set.len);
        first[set.len] = '\0';
        return SLP_OK;
    }
    if (strlen(first) != set.len || memcmp(first, set.s, set.len) != 0) {
        *use = 0;
        warn_at(p, W_OTHER_SET, "set '%.*s' ignored: only the first set '%s' is used",
                TOK_ARG(set), first);
    }
    return SLP_OK;
}

static slp_err apply_rhs(parser_t *p, const dline_t *d)
{
    int use;
    SLP_CALL(use_set(p, 0, d->first, &use));
    if (!use)
        return SLP_OK;
    for (int k = 0; k < d->npairs; k++) {
        int64_t code = d->rcode[k];
        double v = d->val[k];
        tok_t rn = d->rname[k];
        if (code == CODE_UNKNOWN) {
            warn_at(p, W_UNDEF_ROW, "row '%.*s' in RHS is not declared in ROWS: ignored",
                    TOK_ARG(rn));
            continue;
        }
        if (code == CODE_DROPPED)
            continue;
        if (code == CODE_OBJ) {
            if (p->has_obj_const) {
                warn_at(p, W_DUP_RHS, "second RHS %g on the objective row: ignored", v);
                continue;
            }
            if (fabs(v) >= SLP_MPS_INF)
                return input_error(p, "RHS %g of the objective row (objective constant) is "
                                      "infinite", v);
            p->has_obj_const = 1;
            p->obj_const = v == 0.0 ? 0.0 : -v;
            continue;
        }
        if (p->row_flags[code] & RF_RHS) {
            warn_at(p, W_DUP_RHS, "row '%.*s' has a second RHS %g: ignored (first one kept)",
                    TOK_ARG(rn), v);
            continue;
        }
        char type = p->row_type[code];
        if ((type == 'E' && fabs(v) >= SLP_MPS_INF) || (type == 'G' && v >= SLP_MPS_INF) ||
            (type == 'L' && v <= -SLP_MPS_INF))
            return input_error(p, "RHS %g of %c row '%.*s' is infinite: the row cannot be "
                               "satisfied", v, type, TOK_ARG(rn));
        if (v >= SLP_MPS_INF)
            v = INFINITY;
        else if (v <= -SLP_MPS_INF)
            v = -INFINITY;
        p->row_flags[code] |= RF_RHS;
        p->rhs[code] = v;
    }
    return SLP_OK;
}

static slp_err apply_ranges(parser_t *p, const dline_t *d)
{
    int use;
    SLP_CALL(use_set(p, 1, d->first, &use));
    if (!use)
        return SLP_OK;
    for (int k = 0; k < d->npairs; k++) {
        int64_t code = d->rcode[k];
        double v = d->val[k];
        tok_t rn = d->rname[k];
        if (code == CODE_UNKNOWN) {
            warn_at(p, W_UNDEF_ROW, "row '%.*s' in RANGES is not declared in ROWS: ignored",
                    TOK_ARG(rn));
            continue;
        }
        if (code == CODE_OBJ || code == CODE_DROPPED) {
            warn_at(p, W_RANGE_N, "RANGES value on N row '%.*s' ignored", TOK_ARG(rn));
            continue;
        }
        if (p->row_flags[code] & RF_RANGE) {
            warn_at(p, W_DUP_RANGE, "row '%.*s' has a second RANGES value %g: ignored",
                    TOK_ARG(rn), v);
            continue;
        }
        if (v >= SLP_MPS_INF)
            v = INFINITY;
        else if (v <= -SLP_MPS_INF)
            v = -INFINITY;
        p->row_flags[code] |= RF_RANGE;
        p->range[code] = v;
    }
    return SLP_OK;
}

/* Column j's name, or "" once a piece has dropped its names (slp_mps_pieces_drop_names:
 * its bound messages then name no column). */
static const char *col_name(const parser_t *p, int64_t j)
{
    return p->col_names ? p->col_names[j] : "";
}

/* Set one side of a column's bounds unless a bound was already given there. */
static int set_side(parser_t *p, int64_t j, unsigned flag, double v, const char *what)
{
    if (p->col_flags[j] & flag) {
        warn_at(p, W_DUP_BOUND, "column '%s' has a second %s bound %g: ignored (first one kept)",
                col_name(p, j), what, v);
        return 0;
    }
    p->col_flags[j] |= (unsigned char)flag;
    if (flag == CF_LOWER)
        p->lv[j] = v;
    else
        p->uv[j] = v;
    return 1;
}

/* The columns' bounds arrays, made here when first needed: from the start for one
 * process (slp_mps_parse), at a piece's first bound for a parallel read (until then every
 * column has [0, +inf)), so that a piece holds no bounds arrays while it holds its
 * names (it drops them before its bounds are applied: slp_mps_pieces_drop_names). One
 * process fills them as the columns come, in the same pass (a fill at the first bound
 * is a second pass over 16 bytes a column). */
static slp_err column_bounds(parser_t *p)
{
    if (p->lv)
        return SLP_OK;
    size_t cap = (size_t)(p->col_cap > 0 ? p->col_cap : 1);
    p->lv = calloc(cap, sizeof(double)); /* 0.0: a piece's untouched pages cost nothing */
    p->uv = malloc(sizeof(double) * cap);
    if (!p->lv || !p->uv) {
        free(p->lv), free(p->uv);
        p->lv = p->uv = NULL;
        return slp_error(SLP_ERR_NOMEM, "out of memory for the column bounds of %s", p->path);
    }
    for (int64_t j = 0; j < p->n; j++)
        p->uv[j] = INFINITY;
    return SLP_OK;
}

static slp_err apply_bounds(parser_t *p, const dline_t *d)
{
    int use;
    SLP_CALL(use_set(p, 2, d->set, &use));
    if (!use)
        return SLP_OK;
    int64_t j = d->colidx;
    if (j < 0) {
        warn_at(p, W_UNDEF_COL, "bound on column '%.*s', which is not in COLUMNS: ignored",
                TOK_ARG(d->col));
        return SLP_OK;
    }
    SLP_CALL(column_bounds(p));
    const char *cn = col_name(p, j);
    double v = d->value;
    if (d->has_value && !bound_needs_value(d->btype) && d->btype != BT_BV)
        warn_at(p, W_BOUND_VALUE, "value %g on a free/infinite bound of column '%s' ignored", v,
                cn);
    switch (d->btype) {
    case BT_LO:
    case BT_LI:
        if (v >= SLP_MPS_INF)
            return input_error(p, "lower bound %g of column '%s' is +infinite", v, cn);
        if (d->btype == BT_LI)
            p->is_int[j] = 1;
        if (d->btype == BT_LI && v > -SLP_MPS_INF && v != floor(v))
            warn_at(p, W_FRAC_INT, "integer bound %g of column '%s' is fractional (kept)", v, cn);
        set_side(p, j, CF_LOWER, v <= -SLP_MPS_INF ? -INFINITY : v, "lower");
        break;
    case BT_UP:
    case BT_UI:
        if (v <= -SLP_MPS_INF)
            return input_error(p, "upper bound %g of column '%s' is -infinite", v, cn);
        if (d->btype == BT_UI)
            p->is_int[j] = 1;
        if (d->btype == BT_UI && v < SLP_MPS_INF && v != floor(v))
            warn_at(p, W_FRAC_INT, "integer bound %g of column '%s' is fractional (kept)", v, cn);
        if (set_side(p, j, CF_UPPER, v >= SLP_MPS_INF ? INFINITY : v, "upper") && v < 0 &&
            !(p->col_flags[j] & CF_LOWER)) {
            warn_at(p, W_NEG_UP, "negative upper bound %g of column '%s' with no lower bound: "
                                 "lower bound set to -inf", v, cn);
            p->lv[j] = -INFINITY;
        }
        break;
    case BT_FX:
        if (fabs(v) >= SLP_MPS_INF)
            return input_error(p, "fixed value %g of column '%s' is infinite", v, cn);
        set_side(p, j, CF_LOWER, v, "lower");
        set_side(p, j, CF_UPPER, v, "upper");
        break;
    case BT_FR:
        set_side(p, j, CF_LOWER, -INFINITY, "lower");
        set_side(p, j, CF_UPPER, INFINITY, "upper");
        break;
    case BT_MI: set_side(p, j, CF_LOWER, -INFINITY, "lower"); break;
    case BT_PL: set_side(p, j, CF_UPPER, INFINITY, "upper"); break;
    case BT_BV:
        p->is_int[j] = 1;
        set_side(p, j, CF_LOWER, 0.0, "lower");
        set_side(p, j, CF_UPPER, 1.0, "upper");
        break;
    }
    return SLP_OK;
}

/* ---------------------------------------------------------------------------
 * 6. sections, main loop, result
 * ------------------------------------------------------------------------- */

static int parse_sense(tok_t t, int *sense)
{
    if (tok_is(t, "MAX") || tok_is(t, "MAXIMIZE") || tok_is(t, "MAXIMISE")) {
        *sense = -1;
        return 1;
    }
    if (tok_is(t, "MIN") || tok_is(t, "MINIMIZE") || tok_is(t, "MINIMISE")) {
        *sense = 1;
        return 1;
    }
    return 0;
}

static slp_err set_objname(parser_t *p, tok_t t)
{
    if (p->seen_rows)
        return input_error(p, "OBJNAME must come before ROWS");
    free(p->objname);
    p->objname = slp_malloc(t.len + 1);
    if (!p->objname)
        return SLP_ERR_NOMEM;
    memcpy(p->objname, t.s, t.len);
    p->objname[t.len] = '\0';
    return SLP_OK;
}

static const char *unsupported_section(tok_t t)
{
    static const char *const quad[] = {"QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX"};
    for (int k = 0; k < 4; k++)
        if (tok_is(t, quad[k]))
            return "quadratic";
    if (tok_is(t, "CSECTION"))
        return "conic";
    if (tok_is(t, "SOS") || tok_is(t, "SETS"))
        return "special-ordered-set";
    if (tok_is(t, "INDICATORS"))
        return "indicator-constraint";
    if (tok_is(t, "GENCONS") || tok_is(t, "PWLOBJ") || tok_is(t, "PWLNAM") ||
        tok_is(t, "PWLCON") || tok_is(t, "LAZYCONS") || tok_is(t, "USERCUTS") ||
        tok_is(t, "BRANCH") || tok_is(t, "OBJSENSE2"))
        return "non-LP";
    return NULL;
}

static slp_err header_line(parser_t *p)
{
    p->header_lines++;
    tok_t tok[HEADER_TOKENS];
    int ntok = tokenize(p->line, p->line_len, tok, HEADER_TOKENS);
    tok_t key = tok[0];

    if (p->objsense_pending && parse_sense(key, &p->sense)) {
        p->objsense_pending = 0;
        return SLP_OK;
    }
    p->objsense_pending = 0;
    if (p->objname_pending && !tok_is(key, "ROWS") && !tok_is(key, "NAME")) {
        p->objname_pending = 0;
        return set_objname(p, key);
    }
    p->objname_pending = 0;

    if (tok_is(key, "NAME")) {
        /* The rest of the line, trimmed (may be empty or contain spaces). */
        const char *s = key.s + key.len;
        size_t len = p->line_len - (size_t)(s - p->line);
        while (len > 0 && is_blank(*s))
            s++, len--;
        while (len > 0 && is_blank(s[len - 1]))
            len--;
        if (len == 4 && !strncmp(s, "FREE", 4))
            len = 0; /* "NAME FREE": no name, the free-format marker */
        if (len >= 5 && !strncmp(s + len - 4, "FREE", 4) && is_blank(s[len - 5])) {
            len -= 4; /* CoinMpsIO's free-format marker (io/mps_write.c), not the name */
            while (len > 0 && is_blank(s[len - 1]))
                len--;
        }
        free(p->name);
        p->name = slp_malloc(len + 1);
        if (!p->name)
            return SLP_ERR_NOMEM;
        memcpy(p->name, s, len);
        p->name[len] = '\0';
        p->section = SEC_NAME;
        return SLP_OK;
    }
    if (tok_is(key, "OBJSENSE") || tok_is(key, "OBJSENS")) {
        if (p->sense_given++)
            return input_error(p, "second OBJSENSE (the first one is on an earlier line)");
        if (ntok >= 2) {
            if (!parse_sense(tok[1], &p->sense))
                return input_error(p, "unknown objective sense '%.*s' (expected MIN or MAX)",
                                   (int)(tok[1].len > 20 ? 20 : tok[1].len), tok[1].s);
            p->section = SEC_NAME;
        } else {
            p->section = SEC_OBJSENSE;
            p->objsense_pending = 1;
        }
        return SLP_OK;
    }
    if (tok_is(key, "OBJNAME")) {
        if (ntok >= 2) {
            SLP_CALL(set_objname(p, tok[1]));
            p->section = SEC_NAME;
        } else {
            p->section = SEC_OBJNAME;
            p->objname_pending = 1;
        }
        return SLP_OK;
    }
    if (tok_is(key, "ROWS")) {
        if (p->seen_columns)
            return input_error(p, "ROWS section after COLUMNS");
        p->seen_rows = 1;
        p->section = SEC_ROWS;
        return SLP_OK;
    }
    if (tok_is(key, "COLUMNS")) {
        if (!p->seen_rows)
            return input_error(p, "COLUMNS section before ROWS");
        p->seen_columns = 1;
        p->section = SEC_COLUMNS;
        p->cur_col = -1;
        return SLP_OK;
    }
    if (tok_is(key, "RHS") || tok_is(key, "RANGES") || tok_is(key, "BOUNDS")) {
        if (!p->seen_rows)
            return input_error(p, "%.*s section before ROWS", (int)key.len, key.s);
        p->section = tok_is(key, "RHS") ? SEC_RHS : tok_is(key, "RANGES") ? SEC_RANGES : SEC_BOUNDS;
        return SLP_OK;
    }
    if (tok_is(key, "ENDATA")) {
        p->section = SEC_END;
        return SLP_OK;
    }
    const char *what = unsupported_section(key);
    if (what)
        return input_error(p, "section %.*s (%s) is not supported: shardlp solves linear "
                              "programs only", (int)key.len, key.s, what);
    return input_error(p, "unknown section '%.*s' (or a data line that does not start with a "
                          "blank)", (int)(key.len > 40 ? 40 : key.len), key.s);
}

/* A piece's BOUNDS line, handed to the parallel read (its column is on another rank). */
static slp_err defer_bound(parser_t *p, const dline_t *d)
{
    slp_mps_bound_t b = {(int)d->btype, d->set.s, d->set.len, d->col.s, d->col.len,
                         d->has_value, d->value};
    return p->on_bound(p->bound_user, p->lineno, &b);
}

static slp_err data_line(parser_t *p)
{
    switch (p->section) {
    case SEC_NONE:
        return input_error(p, "data line before any section (is this an MPS file?)");
    case SEC_NAME:
        return input_error(p, "unexpected data line (not in ROWS, COLUMNS, RHS, RANGES or BOUNDS)");
    case SEC_OBJSENSE: {
        tok_t tok[HEADER_TOKENS];
        int ntok = tokenize(p->line, p->line_len, tok, HEADER_TOKENS);
        if (!p->objsense_pending || ntok < 1 || !parse_sense(tok[0], &p->sense))
            return input_error(p, "OBJSENSE section needs one line MIN or MAX");
        p->objsense_pending = 0;
        return SLP_OK;
    }
    case SEC_OBJNAME: {
        tok_t tok[HEADER_TOKENS];
        int ntok = tokenize(p->line, p->line_len, tok, HEADER_TOKENS);
        if (!p->objname_pending || ntok < 1)
            return input_error(p, "OBJNAME section needs one line with the objective row name");
        p->objname_pending = 0;
        return set_objname(p, tok[0]);
    }
    default: break;
    }
    if (p->section == SEC_BOUNDS && p->col_searches >= MAX_COL_SEARCHES)
        SLP_CALL(index_columns(p)); /* find_column's guesses miss too often */
    dline_t d;
    if (p->section == SEC_COLUMNS && decode_columns_common(p, &d))
        return apply_columns(p, &d);
    SLP_CALL(decode_line(p, &d));
    switch (p->section) {
    case SEC_ROWS: return apply_row(p, &d);
    case SEC_COLUMNS: return apply_columns(p, &d);
    case SEC_RHS: return apply_rhs(p, &d);
    case SEC_RANGES: return apply_ranges(p, &d);
    case SEC_BOUNDS: return p->on_bound ? defer_bound(p, &d) : apply_bounds(p, &d);
    default: return input_error(p, "unexpected data line");
    }
}

/* After ENDATA: read what is left so that a compressed file's checksum and
 * length are verified (a corrupted or cut .gz is an I/O error, not a model). */
static slp_err check_stream_end(parser_t *p)
{
    while (slp_text_in_read(p->file, p->buf, p->buf_cap) > 0)
        ;
    const char *why = NULL;
    slp_text_status st = slp_text_in_status(p->file, &why);
    if (st != SLP_TEXT_OK)
        return slp_error(SLP_ERR_IO, "%s: compressed data after ENDATA is corrupt or cut (%s)",
                         p->path, st == SLP_TEXT_TRUNCATED ? "unexpected end of file" : why);
    return SLP_OK;
}

/* Lines until the end of the input, or through ENDATA (then p->section == SEC_END). */
static slp_err parse_lines(parser_t *p)
{
    for (;;) {
        slp_err err;
        if (p->section == SEC_COLUMNS)
            SLP_CALL(columns_run(p));
        if (!read_line(p, &err))
            return err;
        const char *s = p->line;
        if (s[0] == '*')
            continue; /* comment line */
        size_t k = 0;
        while (k < p->line_len && (is_blank(s[k])))
            k++;
        if (k == p->line_len)
            continue; /* blank line */
        if (k == 0)
            SLP_CALL(header_line(p));
        else
            SLP_CALL(data_line(p));
        if (p->section == SEC_END)
            return SLP_OK;
    }
}

static slp_err parse_file(parser_t *p)
{
    SLP_CALL(parse_lines(p));
    if (p->section == SEC_END)
        return check_stream_end(p);
    if (p->lineno == 0)
        return slp_error(SLP_ERR_INPUT, "%s: empty file", p->path);
    return input_error(p, "end of file without ENDATA (truncated file?)");
}

/* Row bounds from type, RHS and RANGES (standard MPS rules). */
static void row_bounds(char type, double rhs, int has_range, double r, double *lo, double *up)
{
    double a = fabs(r);
    switch (type) {
    case 'E':
        if (!has_range || r == 0.0) {
            *lo = *up = rhs;
        } else if (r > 0) {
            *lo = rhs;
            *up = rhs + a;
        } else {
            *lo = rhs - a;
            *up = rhs;
        }
        break;
    case 'L':
        *lo = has_range ? rhs - a : -INFINITY;
        *up = rhs;
        break;
    default: /* 'G' */
        *lo = rhs;
        *up = has_range ? rhs + a : INFINITY;
        break;
    }
}

static void print_warning_summary(parser_t *p)
{
    if (p->quiet)
        return;
    for (int k = 0; k < W_COUNT; k++)
        if (p->warn_count[k] > WARN_SHOWN)
            slp_warn("%s: %lld %s in total (first %d shown)\n", p->path,
                     (long long)p->warn_count[k], warn_names[k], WARN_SHOWN);
}

/* The row and column names, their stores and indexes. */
static void names_free(parser_t *p)
{
    slp_name_index_destroy(&p->rows);
    slp_name_index_destroy(&p->cols);
    slp_name_store_free(&p->row_store);
    slp_name_store_free(&p->col_store);
    free(p->row_names);
    free(p->col_names);
    p->row_names = p->col_names = NULL;
}

static void parser_free(parser_t *p)
{
    slp_text_in_close(&p->file);
    free(p->buf);
    free(p->arena);
    free(p->tok);
    free(p->pair_name);
    free(p->pair_code);
    free(p->pair_val);
    free(p->objname);
    names_free(p);
    free(p->row_type);
    free(p->rhs);
    free(p->range);
    free(p->row_flags);
    free(p->row_last_col);
    free(p->c);
    free(p->lv);
    free(p->uv);
    free(p->col_flags);
    free(p->is_int);
    for (int k = 0; k < 3; k++)
        free(p->set_name[k]);
    free(p->name);
    free(p->obj_name);
}

void slp_mps_result_free(slp_mps_result_t *res)
{
    if (!res)
        return;
    slp_names_free(res->row_names, res->m);
    slp_names_free(res->col_names, res->n);
    free(res->name);
    free(res->obj_name);
    free(res->lc);
    free(res->uc);
    free(res->c);
    free(res->lv);
    free(res->uv);
    free(res->is_int);
    memset(res, 0, sizeof *res);
}

/* Move the parser's tables into the result (shrinking nothing: the tables are
 * at most twice their size). */
static slp_err finish(parser_t *p, slp_mps_result_t *out)
{
    /* Row bounds, computed in place: rhs -> lc, range -> uc. */
    for (int64_t i = 0; i < p->m; i++) {
        double lo, up;
        row_bounds(p->row_type[i], p->rhs[i], (p->row_flags[i] & RF_RANGE) != 0, p->range[i], &lo,
                   &up);
        p->rhs[i] = lo;
        p->range[i] = up;
    }
    if (p->objname && !p->obj_name)
        return slp_error(SLP_ERR_INPUT, "%s: OBJNAME '%s' is not an N row of the ROWS section",
                         p->path, p->objname);
    int64_t n_int = 0;
    for (int64_t j = 0; j < p->n; j++)
        n_int += p->is_int[j] != 0;
    print_warning_summary(p);
    if (!p->is_piece) /* a piece leaves them NULL: all [0, +inf) */
        SLP_CALL(column_bounds(p));

    memset(out, 0, sizeof *out);
    if (!p->name && !(p->name = slp_strdup("")))
        return SLP_ERR_NOMEM;
    if (!p->obj_name && !(p->obj_name = slp_strdup("")))
        return SLP_ERR_NOMEM;
    out->name = p->name, p->name = NULL;
    out->obj_name = p->obj_name, p->obj_name = NULL;
    out->sense = p->sense;
    out->obj_const = p->obj_const;
    out->m = p->m;
    out->n = p->n;
    out->nnz = p->nnz;
    if (!p->is_piece) { /* (slp_mps_pieces_columns) */
        slp_err err = slp_names_pack(p->row_names, p->m, p->row_store.bytes, &out->row_names);
        if (!err)
            err = slp_names_pack(p->col_names, p->n, p->col_store.bytes, &out->col_names);
        if (err) {
            slp_mps_result_free(out);
            return err;
        }
    }
    out->lc = p->rhs, p->rhs = NULL;
    out->uc = p->range, p->range = NULL;
    out->c = p->c, p->c = NULL;
    out->lv = p->lv, p->lv = NULL;
    out->uv = p->uv, p->uv = NULL;
    out->is_int = p->is_int, p->is_int = NULL;
    out->n_int = n_int;
    return SLP_OK;
}

/* The state of a parser before its first line; the input is opened by the caller. */
static slp_err parser_init(parser_t *p, const char *path, const slp_mps_callbacks_t *cb)
{
    memset(p, 0, sizeof *p);
    p->path = path;
    p->cb = cb;
    p->quiet = cb ? cb->quiet : 0;
    p->sense = 1;
    p->cur_col = -1;
    p->cols_in_order = 1;
    p->first_marker_col = -1;
    p->buf_cap = READ_BLOCK;
    p->buf = slp_malloc(p->buf_cap + LINE_PAD);
    p->nul_at = NO_NUL;
    if (!p->buf)
        return SLP_ERR_NOMEM;
    SLP_CALL(slp_name_index_create(1024, &p->rows));
    return slp_name_index_create(1024, &p->cols);
}

slp_err slp_mps_parse(const char *path, const slp_mps_callbacks_t *cb, slp_mps_result_t *out)
{
    memset(out, 0, sizeof *out);
    parser_t p;
    slp_err err = parser_init(&p, path, cb);
    if (!err) /* one process: the bounds from the start, grown with the columns */
        err = column_bounds(&p);
    if (!err) {
        err = slp_text_in_open(path, &p.file);
        if (err != SLP_OK && slp_interrupt_pending()) { /* a pipe with no writer yet */
            slp_error_clear();
            err = slp_error(SLP_ERR_IO, "%s: interrupted by signal %d while opening", path,
                            slp_interrupt_signal());
        }
    }
    if (!err)
        err = parse_file(&p);
    if (!err)
        err = finish(&p, out);
    if (err)
        slp_mps_result_free(out);
    parser_free(&p);
    return err;
}

/* ---------------------------------------------------------------------------
 * 7. pieces of a parallel read (mps_parse.h)
 * ------------------------------------------------------------------------- */

struct slp_mps_pieces {
    parser_t p;
};

slp_err slp_mps_pieces_open(const char *path, slp_text_at_t *src,
                            const slp_mps_callbacks_t *cb, slp_mps_pieces_t **out)
{
    *out = slp_calloc(1, sizeof **out);
    if (!*out)
        return SLP_ERR_NOMEM;
    parser_t *p = &(*out)->p;
    slp_err err = parser_init(p, path, cb);
    p->quiet = 1;
    p->is_piece = 1;
    p->src = src;
    if (err)
        slp_mps_pieces_close(out);
    return err;
}

void slp_mps_pieces_defer_bounds(slp_mps_pieces_t *pc, slp_mps_bound_fn fn, void *user)
{
    pc->p.on_bound = fn;
    pc->p.bound_user = user;
}

slp_err slp_mps_pieces_read(slp_mps_pieces_t *pc, int64_t begin, int64_t end,
                            int64_t lines_before, slp_mps_piece_kind kind)
{
    parser_t *p = &pc->p;
    p->pos = begin;
    p->limit = end;
    p->read_errno = 0;
    p->buf_start = p->buf_end = 0;
    p->buf_eof = 0;
    p->nul_at = NO_NUL;
    p->lineno = lines_before;
    p->cur_col = -1; /* a piece never continues the run of a column */
    int64_t headers = p->header_lines;
    SLP_CALL(parse_lines(p));
    if ((p->section == SEC_END) != (kind == SLP_PIECE_ENDATA) ||
        (kind == SLP_PIECE_DATA && p->header_lines != headers))
        p->irregular = 1;
    return SLP_OK;
}

slp_err slp_mps_pieces_apply_bound(slp_mps_pieces_t *pc, int64_t col, const slp_mps_bound_t *b,
                                   int64_t line)
{
    parser_t *p = &pc->p;
    dline_t d;
    init_dline(&d, NULL, NULL, NULL);
    d.btype = (bound_type_t)b->type;
    d.col.s = col_name(p, col);
    d.col.len = strlen(d.col.s);
    d.colidx = col;
    d.has_value = b->has_value;
    d.value = b->value;
    p->lineno = line;
    return apply_bounds(p, &d); /* the set was checked by the caller: d.set is empty */
}

int slp_mps_pieces_in_order(const slp_mps_pieces_t *pc)
{
    return pc->p.cols_in_order;
}

int64_t slp_mps_pieces_find_in_order(const slp_mps_pieces_t *pc, const char *name, size_t len)
{
    return pc->p.cols_in_order ? search_ordered(&pc->p, (tok_t){name, len}) : -1;
}

char *const *slp_mps_pieces_columns(const slp_mps_pieces_t *pc, int64_t *n)
{
    *n = pc->p.n;
    return pc->p.col_names;
}

char *const *slp_mps_pieces_rows(const slp_mps_pieces_t *pc, int64_t *m)
{
    *m = pc->p.m;
    return pc->p.row_names;
}

void slp_mps_pieces_drop_column_index(slp_mps_pieces_t *pc)
{
    slp_name_index_destroy(&pc->p.cols);
}

void slp_mps_pieces_drop_names(slp_mps_pieces_t *pc)
{
    names_free(&pc->p);
}

void slp_mps_pieces_markers(const slp_mps_pieces_t *pc, int64_t *first, int *open)
{
    *first = pc->p.first_marker_col;
    *open = pc->p.in_int_block;
}

void slp_mps_pieces_set_integer(slp_mps_pieces_t *pc, int64_t col)
{
    pc->p.is_int[col] = 1;
}

int64_t slp_mps_pieces_irregular(const slp_mps_pieces_t *pc)
{
    int64_t count = pc->p.irregular;
    for (int k = 0; k < W_COUNT; k++)
        count += pc->p.warn_count[k];
    return count;
}

slp_err slp_mps_pieces_result(slp_mps_pieces_t *pc, slp_mps_result_t *out)
{
    memset(out, 0, sizeof *out);
    slp_err err = finish(&pc->p, out);
    if (err)
        slp_mps_result_free(out);
    return err;
}

void slp_mps_pieces_close(slp_mps_pieces_t **pc)
{
    if (!*pc)
        return;
    parser_free(&(*pc)->p);
    free(*pc);
    *pc = NULL;
}
