"""The Guide tab: the setup guide for a GPU, a build or a probe report."""
