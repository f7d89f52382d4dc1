"""A machine as a list of catalog parts: what it is, whether its parts work together, and its documents."""
