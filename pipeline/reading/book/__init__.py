"""The one reader of printed books: adapters turn a source into a page stream (stream.py), and shared
layers read every stream alike (docs/architecture.md, "The reader of printed books")."""
