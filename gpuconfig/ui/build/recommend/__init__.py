"""The Build tab's planner: ranked, priced builds and rentals for the Workload tab's job."""
