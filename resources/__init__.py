"""Icons, style sheets and translations, read through importlib.resources."""
