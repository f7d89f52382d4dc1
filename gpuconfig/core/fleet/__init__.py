"""A fleet of machines judged together: reports read from a folder, each node against the fleet's own
distribution, a baseline and its own checks, the outliers named with their reasons."""
