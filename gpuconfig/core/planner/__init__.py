"""From a workload estimate and the user's limits to ranked, priced, checked builds (or rentals)."""
