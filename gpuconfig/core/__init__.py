"""Everything gpuconfig knows and decides, without Qt, torch or a window: a package per capability (catalog,
build, guide, egpu, workload, planner, userdata) on shared modules (money, units, paths, database, ...)."""
