"""The Catalog tab: the priced parts in a sortable table, their filters, details, comparison and price chart."""
