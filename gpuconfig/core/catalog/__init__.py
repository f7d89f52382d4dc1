"""The priced hardware catalog: schema, files, the shipped parts in the SQLite file with their effective
prices, and queries. The bottom of the core: it imports no other capability."""
