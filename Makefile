# Build, boot and test a Linux 6.12 mm patch series. 'make help' lists targets.
# Settings go on the command line, e.g. make run CMD='uname -r' CPUS=4 MEM=4G.
SHELL := /bin/bash
H := harness

# A guest setting that the asked-for target does not read is an error, not
# silently ignored: 'make test CPUS=8' would otherwise run the suite guest
# of configs/test-categories and say nothing.
GUEST_SETTINGS := CMD CPUS MEM NUMA SWAP SWAP_BPS DISKS APPEND PREALLOC
reads_run := $(GUEST_SETTINGS)
reads_env := $(GUEST_SETTINGS)
reads_bisect-feature := $(filter-out CMD,$(GUEST_SETTINGS))
reads_bench := $(filter-out CMD,$(GUEST_SETTINGS))
reads_stress := APPEND
goals := $(or $(MAKECMDGOALS),help)
$(foreach v,$(GUEST_SETTINGS),$(if $(filter command line,$(origin $(v))),\
	$(if $(filter $(v),$(foreach g,$(goals),$(reads_$(g)))),,\
	$(error make $(goals) does not read $(v): only run, bench and bisect-feature boot a guest you size (see docs/booting.md)))))

# Settings reach the scripts as typed: without this, make expands '$s' in
# CMD='for s in a b; do echo $s; done' (and '$?', '$(...)') before the guest
# sees it, in a command-line or an environment setting alike.
SETTINGS := RUN QUICK CMD CPUS MEM NUMA SWAP SWAP_BPS DISKS APPEND TIMEOUT ACCEL RESULTS KERNEL \
	TEST STEPS PREFIXES OPTIONS FEATURES DEBUG JOBS CATS FORCE BASE_ANY_VERSION QUIET SKIP_BOOT \
	SKIP_BENCH RUNS MERGE B REPS CASES VARIANTS_OVERRIDE PREALLOC WARMUP DURATION TCG STORM OOM_TASKS OOM_REPS \
	OOM_LIMIT OOM_HOLD OOM_EXIT_LIMIT MUTANTS FEATURE CHECK
$(foreach v,$(SETTINGS),$(if $(filter environment command,$(firstword $(origin $(v)))),$(eval override $(v) := $$(value $(v)))))

export RUN QUICK CMD CPUS MEM NUMA SWAP SWAP_BPS DISKS APPEND TIMEOUT ACCEL RESULTS KERNEL
export TEST STEPS PREFIXES OPTIONS FEATURES DEBUG JOBS CATS FORCE BASE_ANY_VERSION QUIET SKIP_BOOT SKIP_BENCH RUNS MERGE B REPS CASES VARIANTS_OVERRIDE PREALLOC WARMUP DURATION TCG STORM OOM_TASKS OOM_REPS
export OOM_LIMIT OOM_HOLD OOM_EXIT_LIMIT MUTANTS FEATURE CHECK

.PHONY: help tree export check-export config build selftests run test test-full \
	baseline harness-test checkpatch check-off clean deps bench bench-report \
	bisect-feature cover-table check-cover-table check-series env stress check-mutants promote series

help:
	@echo "make run [CMD='...']   build what is missing, boot the patched kernel (shell or CMD)"
	@echo "make test              checkpatch, build, harness tests, KUnit + mm selftests vs baseline"
	@echo "make test-full         the same with every mm selftest category"
	@echo "make tree | export     build/linux from patches/ | patches/ from build/linux"
	@echo "make build [FEATURES=all|none|'CONFIG_X ...'] [DEBUG=1]"
	@echo "make baseline          full suite on the unpatched base -> baseline/mm-base.tsv"
	@echo "make check-off         features compiled out: hooked objects identical to the base"
	@echo "make bench [B=name] [QUICK=1] [REPS=n] [KERNEL=base]   benchmarks -> build/bench-runs/"
	@echo "make promote RUN=build/bench-runs/<bench>/<id>   keep a run as evidence in results/"
	@echo "make bench-report      regenerate results/SUMMARY.md, results/README.md, the cover letter's table"
	@echo "make bisect-feature TEST='cmd'   which feature's sysctl makes the test fail (one boot); PATCH=1: and which patch"
	@echo "make check-series [QUICK=1] [STEPS=...] every patch alone: builds, boots, warnings (hours cold)"
	@echo "make cover-table       the cover letter's results table from results/ (then export)"
	@echo "make stress [DURATION=600] [DEBUG=1]  features toggled every 100 ms under a mixed load, then leak checks"
	@echo "make series FEATURE=n [CHECK=0]   feature n's patches alone on the base, with a cover letter -> build/split/n/"
	@echo "make check-mutants [MUTANTS='f2-*']  planted defects: does make test's set catch each? -> results/mutants/"
	@echo "make env               the settings as the scripts receive them"
	@echo "See README.md and docs/booting.md for CPUS, MEM, NUMA, SWAP, DISKS, APPEND, TIMEOUT, ACCEL."

deps:
	@$(H)/deps.sh
tree: deps
	@$(H)/tree.sh
export:
	@$(H)/export.sh
check-export:
	@$(H)/check-export.sh && echo "patches/ and build/linux agree"
config: tree
	@$(H)/configure.sh
build: tree
	@$(H)/build.sh
selftests: build
	@$(H)/selftests.sh
run: build
	@$(H)/boot.sh
checkpatch: tree
	@$(H)/checkpatch.sh
check-off: tree
	@$(H)/check-off.sh
harness-test:
	@tests/harness/run.sh
test: deps
	@$(H)/test.sh quick
test-full: deps
	@$(H)/test.sh full
baseline:
	@$(H)/baseline.sh
bench: build
	@QUICK=$(QUICK) bench/run.sh
env:
	@for v in $(SETTINGS); do printf '%s=%s\n' "$$v" "$${!v-}"; done
stress: tree
	@$(H)/stress.sh
check-mutants: tree
	@$(H)/check-mutants.sh
series: tree
	@$(H)/series.sh
promote:
	@$(H)/promote.sh
bench-report:
	@for d in results/*/*/; do python3 bench/report.py $$d > /dev/null; done
	@python3 bench/report.py --summary results && echo "results/SUMMARY.md"
	@python3 bench/verdicts.py && python3 bench/verdicts.py --plots > /dev/null
	@python3 $(H)/cover-table.py && $(H)/export.sh
bisect-feature: build
	@$(H)/bisect-feature.sh
check-series: deps
	@$(H)/check-series.sh
cover-table:
	@python3 $(H)/cover-table.py && $(H)/export.sh
check-cover-table:
	@python3 $(H)/cover-table.py --check
clean:
	rm -rf build/obj build/obj-debug build/base/obj build/test-* build/runs build/disks
