"""The priced hardware catalog: schema, files, the SQLite store and queries."""
