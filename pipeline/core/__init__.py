"""Layer 0, core: IDs, the data model, the corpus tree and its accessors, errors, the report.

Imports nothing else of the pipeline."""
