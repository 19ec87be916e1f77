/* The personalised exchanges of src/grid/comm.h, on however many ranks the test runs
 * (one under ctest; `make test-asan` runs it on 3 under mpirun): every record arrives
 * from the rank that sent it, in sender order, and slp_comm_exchange_into reuses its
 * buffer while the records fit and replaces it when they do not. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "grid/comm.h"

/* The k-th record rank s sends to rank d in round t. */
static int64_t record(int s, int d, int t, int64_t k)
{
    return (int64_t)s * 1000000000 + (int64_t)d * 1000000 + (int64_t)t * 1000 + k;
}

/* How many records rank s sends to rank d in round t: rounds 0-2 grow, 3 shrinks, 4 sends
 * nothing, 5 grows past everything before. */
static int64_t how_many(int s, int d, int t)
{
    static const int64_t base[] = {1, 5, 40, 3, 0, 300};
    return base[t] ? base[t] + (s + 2 * d) % 3 : 0;
}

/* One round: pack, exchange into (buf, cap), check what came. */
static void round_into(slp_comm_t *comm, int t, int64_t **buf, int64_t *cap)
{
    int P = slp_comm_size(comm), me = slp_comm_rank(comm);
    int64_t *per = malloc(sizeof *per * (size_t)P), *from = malloc(sizeof *from * (size_t)P);
    int64_t total = 0;
    for (int d = 0; d < P; d++)
        total += per[d] = how_many(me, d, t);
    int64_t *send = malloc(sizeof *send * (size_t)(total + 1)), at = 0;
    for (int d = 0; d < P; d++)
        for (int64_t k = 0; k < per[d]; k++)
            send[at++] = record(me, d, t, k);
    int64_t *before = *buf, cap_before = *cap, count = -1;
    slp_err rc = slp_comm_exchange_into(comm, send, per, sizeof *send, (void **)buf, cap, &count,
                                        from);
    CHECK(rc == SLP_OK, "round %d: %s", t, slp_error_message());
    int64_t expect = 0;
    for (int s = 0; s < P; s++)
        expect += how_many(s, me, t);
    CHECK(count == expect, "round %d: %lld records, expected %lld", t, (long long)count,
          (long long)expect);
    if ((expect + 1) * (int64_t)sizeof **buf <= cap_before) /* room enough: the same buffer */
        CHECK(*buf == before && *cap == cap_before, "round %d: buffer replaced", t);
    else
        CHECK(*cap >= expect * (int64_t)sizeof **buf, "round %d: capacity %lld", t, (long long)*cap);
    at = 0;
    for (int s = 0; rc == SLP_OK && count == expect && s < P; s++) {
        CHECK(from[s] == how_many(s, me, t), "round %d: %lld from rank %d", t,
              (long long)from[s], s);
        for (int64_t k = 0; k < how_many(s, me, t); k++, at++)
            CHECK((*buf)[at] == record(s, me, t, k), "round %d: record %lld from rank %d", t,
                  (long long)k, s);
    }
    free(send);
    free(per);
    free(from);
}

/* slp_comm_exchange_from gives a new array each time, the same records. */
static void test_exchange_from(slp_comm_t *comm)
{
    int P = slp_comm_size(comm), me = slp_comm_rank(comm);
    int64_t *per = malloc(sizeof *per * (size_t)P), *from = malloc(sizeof *from * (size_t)P);
    int64_t total = 0;
    for (int d = 0; d < P; d++)
        total += per[d] = how_many(me, d, 2);
    int64_t *send = malloc(sizeof *send * (size_t)(total + 1)), at = 0;
    for (int d = 0; d < P; d++)
        for (int64_t k = 0; k < per[d]; k++)
            send[at++] = record(me, d, 2, k);
    int64_t *recv = NULL, count = 0;
    CHECK(slp_comm_exchange_from(comm, send, per, sizeof *send, (void **)&recv, &count, from) ==
              SLP_OK, "exchange_from: %s", slp_error_message());
    at = 0;
    for (int s = 0; recv && s < P; s++)
        for (int64_t k = 0; k < from[s]; k++, at++)
            CHECK(recv[at] == record(s, me, 2, k), "exchange_from: record %lld from rank %d",
                  (long long)k, s);
    CHECK(at == count && count > 0, "exchange_from: %lld records", (long long)count);
    free(recv);
    free(send);
    free(per);
    free(from);
}

int main(int argc, char **argv)
{
    if (slp_comm_init(&argc, &argv, 0) != SLP_OK) {
        fprintf(stderr, "comm init: %s\n", slp_error_message());
        return 2;
    }
    slp_comm_t *world = slp_comm_world();
    int64_t *buf = NULL, cap = 0;
    for (int t = 0; t < 6; t++)
        round_into(world, t, &buf, &cap);
    free(buf);
    test_exchange_from(world);
    double failed = (double)check_failed; /* every rank must have passed */
    slp_comm_sum(world, &failed, 1);
    int status = slp_comm_rank(world) == 0 ? check_summary() : 0;
    slp_comm_finalize();
    return failed > 0 ? 1 : status;
}
