/* The CPLEX LP file reader (docs/lp-format.md): what HiGHS, PuLP, Gurobi, CPLEX and
 * linopy write. Any compression (io/text_in.h). Errors are "FILE:LINE: problem"
 * (SLP_ERR_INPUT); quadratic terms, SOS, indicator and multi-objective sections are
 * refused by name (SLP_ERR_UNSUPPORTED). General, Binary and Semi-continuous
 * columns are marked integer (the integer-model rule then applies, as for MPS). */
#ifndef SLP_LP_H
#define SLP_LP_H

#include "core/model.h"

/* The characters an LP name cannot contain (besides blanks and controls): operators,
 * ':' of labels, '[' ']' '^' of quadratic terms, '\\' and '*' of comments. Reader and
 * writer. A switch, not a search of a string: the reader asks for every byte of a name. */
static inline int slp_lp_reserved(int ch)
{
    switch (ch) {
    case '+': case '-': case '<': case '>': case '=': case ':':
    case '[': case ']': case '^': case '\\': case '*':
        return 1;
    default:
        return 0;
    }
}

/* The blanks between tokens: isspace's characters in the C locale (the newline too). */
static inline int slp_lp_space(char ch)
{
    return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* A character of a name: printable, not blank, not reserved. */
static inline int slp_lp_name_char(int ch)
{
    return ch > ' ' && ch < 127 && !slp_lp_reserved(ch);
}

slp_err slp_lp_read(const char *path, slp_model_t **out);
/* Write `model` as an LP file that slp_lp_read, HiGHS and CPLEX read (io/lp_write.c). */
slp_err slp_lp_write(const slp_model_t *model, const char *path);

/* 1 when `text` starts with an objective-sense keyword (Minimize, max, ...) followed
 * by the end or a blank: how the registry recognises an LP file. */
int slp_lp_starts_objective(const char *text);

#endif
