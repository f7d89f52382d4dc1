"""What several tabs share: charts, tables, the PDF writer, the memory and power bars, the problem list."""
