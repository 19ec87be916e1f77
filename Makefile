# shardlp top-level Makefile. `make` builds build/shardlp; `make run` solves the
# bundled example on a 2x2 MPI grid; `make test` runs the quick tier of the test suite,
# `make test-all` all of it (.ci/run). Each target installs what
# is missing first (scripts/install-deps.sh).

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
MPIRUN ?= mpirun --allow-run-as-root --oversubscribe
EXAMPLE ?= examples/data/afiro.mps
# The corpus the tests read: the project's beside the repository, else the suite's own
# (tests/data/corpus; docs/testing.md).
CORPUS ?= $(if $(wildcard ../shared/lp/INDEX.tsv),../shared,tests/data/corpus)

.PHONY: all deps build install run test test-slow test-all test-unit test-asan test-packaging test-extended test-memory corpus bench bench-quick bench-families fuzz clean

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/Makefile: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: deps $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

# bin/shardlp, include/shardlp.h, lib/libshardlp.{so,a}, the CMake package and
# shardlp.pc under PREFIX (docs/install.md).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

run: build
	$(MPIRUN) -np 4 $(BUILD)/shardlp solve $(EXAMPLE) --grid 2x2

# make test: the quick tier (every unit test, the command-line and MPI scripts without
# the label slow), about 4 minutes from a clean clone here. The rest, run by .ci/run and by
# `make test-all`: test-asan (the unit tests under ASan/UBSan), test-slow (the long
# scripts), test-extended (the MPI accuracy suites again on the guarded backend),
# test-packaging (the wheel in a fresh venv) and test-memory (per-rank peaks of generated
# LPs of 5-21 million nonzeros). docs/testing.md lists what is where.
# $(call skip_report,LOG): the count of checks skipped for want of the full corpus.
skip_report = n=$$(cat $(1) 2>/dev/null | wc -l); \
	if [ $$n -gt 0 ]; then echo "make $@: $$n checks skipped: corpus not found (they need ../shared; $(1) lists them)"; \
	else echo "make $@: no check skipped (corpus: $(CORPUS))"; fi

test: build
	rm -f $(BUILD)/skipped.log
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE 'packaging|guarded-full|slow'
	@$(call skip_report,$(BUILD)/skipped.log)

test-slow: build
	rm -f $(BUILD)/skipped.log
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L slow
	@$(call skip_report,$(BUILD)/skipped.log)

test-all: test test-asan test-slow test-extended test-packaging test-memory

test-packaging: build
	cd $(BUILD) && ctest --output-on-failure -L packaging

test-extended: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L guarded-full

# The unit tests built with ASan and UBSan, then the distributed presolve test under
# mpirun on two grids, the exchanges' test on 3 ranks, and the parallel readers' tests
# (tests/mpi/parallel_read.sh and parallel_read_lp.sh) with the same build (leak checks
# off there: Open MPI's own allocations would be reported).
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSLP_SANITIZE=ON -DSLP_OPENMP=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	rm -f $(ASAN_BUILD)/skipped.log
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 SLP_TEST_MAX_NNZ=20000 ctest --output-on-failure -j $(JOBS) -L unit
	for g in 2x2 1x4; do ASAN_OPTIONS=detect_leaks=0 SLP_TEST_MAX_NNZ=20000 OMPI_MCA_pml=ob1 $(MPIRUN) -np 4 \
	    -x SLP_SKIP_LOG=$(abspath $(ASAN_BUILD))/skipped.log $(ASAN_BUILD)/test_presolve $(CORPUS) . $$g > $(ASAN_BUILD)/presolve_$$g.log 2>&1 \
	    || { cat $(ASAN_BUILD)/presolve_$$g.log; exit 1; }; tail -1 $(ASAN_BUILD)/presolve_$$g.log; done
	ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_pml=ob1 $(MPIRUN) -np 3 $(ASAN_BUILD)/test_comm | tail -1
	for t in parallel_read parallel_read_lp; do ASAN_OPTIONS=detect_leaks=0 OMPI_MCA_pml=ob1 MPIRUN="$(MPIRUN) -x ASAN_OPTIONS" \
	    bash tests/mpi/$$t.sh $(ASAN_BUILD)/shardlp . $(CORPUS) > $(ASAN_BUILD)/$$t.log 2>&1 \
	    || { cat $(ASAN_BUILD)/$$t.log; exit 1; }; tail -1 $(ASAN_BUILD)/$$t.log; done
	@$(call skip_report,$(ASAN_BUILD)/skipped.log)

# Benchmarks against HiGHS, OR-Tools, Clp (bench/README.md); bench-quick takes minutes.
bench: build
	SHARDLP=$(BUILD)/shardlp bash bench/run.sh

bench-quick: build
	SHARDLP=$(BUILD)/shardlp bash bench/run.sh --quick

# Before a default changes (docs/method-experiments.md): the benchmark families' members at
# the published criterion, 1 thread (bench/results/families/table.md), then the corpus at
# 1e-4 with each half's solved count and iterations (EXTRA: the variant's options).
EXTRA ?=
bench-families: build
	bash bench/rq1.sh --bin $(BUILD)/shardlp --threads 1 --time-limit 150 --extra "$(EXTRA)" --out bench/results/families
	python3 scripts/corpus.py --binary $(BUILD)/shardlp --tol 1e-4:60 --jobs 2 --extra "--threads 1 $(EXTRA)" \
		--csv bench/results/families/corpus-1e-4.csv
	for h in dev val; do python3 scripts/corpus.py --half $$h --compare bench/results/families/corpus-1e-4.csv; done

# Per-rank memory: solves of 11-21 M nonzeros on 1 rank vs 4 ranks, column fixing's copy,
# and the parallel MPS read against each rank's share (docs/memory.md).
test-memory: build
	bash tests/memory/memory_scaling.sh $(BUILD)/shardlp
	bash tests/memory/memory_mcf.sh $(BUILD)/shardlp
	bash tests/memory/memory_fixing.sh $(BUILD)/shardlp
	bash tests/memory/memory_parallel_read.sh $(BUILD)/shardlp

# The corpus tables of docs/corpus.md (long: hours of CPU at the 1e-8 tolerance).
corpus: build
	python3 scripts/corpus.py --binary $(BUILD)/shardlp --tol 1e-4:60 --tol 1e-8:120 \
		--check 1e-6 --jobs 2 --csv docs/corpus.csv --markdown docs/corpus.md

# libFuzzer targets (fuzz/README in docs/fuzzing.md): build, or run each for SECONDS.
fuzz:
	$(MAKE) -C fuzz

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
