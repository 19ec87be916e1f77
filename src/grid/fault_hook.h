/* A test hook for failures on one rank (docs/reliability.md, "Injected failures"):
 * SLP_TEST_NOMEM=SITE:R makes world rank R report "out of memory" at the first pass
 * through the named site, so that the tests can check that every rank ends (or, where
 * the design says so, falls back) instead of waiting in a collective. */
#ifndef SLP_FAULT_HOOK_H
#define SLP_FAULT_HOOK_H

#include "core/error.h"

/* SLP_ERR_NOMEM with a message naming the site when this is the failure to inject, else
 * SLP_OK. Sites: presolve-scratch, presolve-record (src/presolve/presolve_toolkit.c),
 * read-pieces, read-names, read-entries, read-blocks, read-mentions (src/grid/read_*.c),
 * fixing-reduce (src/verdict/fixing.c). */
slp_err slp_fault_nomem(const char *site);

#endif
