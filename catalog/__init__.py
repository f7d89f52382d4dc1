"""Curated catalog data, read through gpuconfig.core.catalog."""
