"""The synthetic card-table generator: faces and backs, tables, hands, layouts, scenes with a camera."""
