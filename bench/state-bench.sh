#!/usr/bin/env bash
# Durable-state figures for BENCHMARKS.md: acknowledged mutations/s with 64 callers at 1k and 100k
# machines against the provider process, restart after SIGKILL, state file size, List latencies,
# engine-level figures (JMH). Builds what it runs, so it works on a clean checkout.
# Usage: bench/state-bench.sh [--short] [measured-seconds [warm-up-seconds]]
#   --short: 1k and 5k machines, a few seconds each, one restart: proves the harness works (CI runs it)
exec "$(dirname "${BASH_SOURCE[0]}")/java-bench.sh" StateBenchmark "$@"
