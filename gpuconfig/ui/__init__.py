"""The window: one package per tab (catalog, workload, build, probe, guide, egpu), widgets several tabs share,
and the application around them (start-up checks, theme, background jobs, main window)."""
