"""Layer 2, corpus: structure, merge, finish and references: one tree per edition.

Imports core and reading."""
