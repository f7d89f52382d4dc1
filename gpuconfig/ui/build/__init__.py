"""The Build tab: pick parts into a build, check every rule live, save and export it."""
