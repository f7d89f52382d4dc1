"""The Probe tab: this machine's inventory, live metrics, benchmarks and their verdicts."""
