"""The user's own data, in the same SQLite file as the catalog: price overrides, imported price lists, saved
builds, settings and the user's exchange rate; and the file opened (`Store`), migrated and repaired."""
