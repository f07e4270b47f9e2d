#!/usr/bin/env bash
# Replica figures for BENCHMARKS.md: acknowledged mutations/s with 64 callers at 1k and 100k
# machines on SQLite and on PostgreSQL (a leader with a standby following it) in one run, and the
# standby's lag under that load. Needs Debian's postgresql package (the benchmark starts its own
# server). Builds what it runs, so it works on a clean checkout.
# Usage: bench/ha-bench.sh [--short] [measured-seconds [warm-up-seconds]]
#   --short: 1k and 5k machines, a few seconds each: proves the harness works (CI runs it)
exec "$(dirname "${BASH_SOURCE[0]}")/java-bench.sh" HaBenchmark "$@"
