"""The HTML edition's parts; html.py holds its stages (write_html, the search index)."""
