"""The Workload tab: describe a job, see its memory and time on a GPU, and what would make it fit."""
