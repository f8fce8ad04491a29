"""A compiled book made to open with its bookmarks shown: the catalog's /PageMode /UseOutlines, which Typst
does not write.

Reads and writes: one PDF file, in place. Imports nothing of lawbook, so that the warm compiler's process
(publish/warm.py) runs the same code as the build without importing the pipeline's stages.

The catalog is changed by an incremental update (ISO 32000-1, 7.5.6): the new catalog, a cross-reference
section for it alone and a trailer are appended, and every byte the compiler wrote stays as it was. qpdf,
which pikepdf wraps, writes no incremental update: saving through it rewrites every object, 0.3–0.4 s for
a book of 120 pages and 10,000 objects (the tagged PDF's structure elements), against 0.04 s here. pikepdf
still reads the file and writes the catalog's dictionary (unparse), so no PDF object is parsed by hand.
PDF/A-2b permits incremental updates; the trailer keeps the file's /ID. A file whose last cross-reference
section is not a table (a stream, which Typst does not write), or an encrypted one, is saved whole through
pikepdf instead, as before: the same result, slower.
"""
import re
from pathlib import Path

# The end of a PDF: its last cross-reference section's offset and the end-of-file marker, with at most one
# end-of-line after it (PDF/A).
_TAIL = re.compile(rb"startxref[\r\n]+(\d+)[\r\n]+%%EOF(\r\n|\r|\n)?$")
_TAIL_BYTES = 1024
# The beginning of a cross-reference table: its first subsection's header, and the entry of object 0 (the
# head of the free list) when the subsection begins there.
_TABLE = re.compile(rb"xref[ \t]*(?:\r\n|\r|\n)"
                    rb"(?:0[ \t]+\d+[ \t]*(?:\r\n|\r|\n)(?P<free>\d{10} \d{5} f(?: \r| \n|\r\n)))?")


def open_with_bookmarks(pdf_path: "Path | str") -> None:
    """Make the PDF at `pdf_path` open with its bookmarks shown. Equal input gives equal bytes; a PDF that
    opens so already is left as it is."""
    import pikepdf

    path = Path(pdf_path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        if pdf.Root.get("/PageMode") == pikepdf.Name.UseOutlines:
            return
        previous, size, eol, free = _last_table(path)
        if previous is None or pdf.is_encrypted:  # (an update would write the catalog's strings unencrypted)
            pdf.Root.PageMode = pikepdf.Name.UseOutlines
            pdf.save(path, deterministic_id=True, fix_metadata_version=False, compress_streams=False,
                     stream_decode_level=pikepdf.StreamDecodeLevel.none)
            return
        number, generation = pdf.Root.objgen
        catalog = pikepdf.Dictionary({key: pdf.Root[key] for key in pdf.Root.keys()})
        catalog.PageMode = pikepdf.Name.UseOutlines
        trailer = pikepdf.Dictionary({key: pdf.trailer[key] for key in pdf.trailer.keys()
                                      if key not in ("/Prev", "/XRefStm")})  # (the earlier sections' own)
        trailer.Prev = previous
        unparsed_catalog, unparsed_trailer = catalog.unparse(), trailer.unparse()
    update = b"" if eol else b"\n"  # the update begins on a line of its own
    at = size + len(update)
    update += b"%d %d obj\n" % (number, generation) + unparsed_catalog + b"\nendobj\n"
    xref = size + len(update)
    # Object 0, the head of the free list, stated again as it was, as writers of updates do: some readers
    # take a section that does not begin at 0 for a damaged table.
    update += b"xref\n" + (b"0 1\n" + free if free else b"")
    update += b"%d 1\n%010d %05d n \ntrailer\n" % (number, at, generation) + unparsed_trailer
    update += b"\nstartxref\n%d\n%%%%EOF\n" % xref
    with path.open("ab") as f:
        f.write(update)


def _last_table(path: Path) -> "tuple[int | None, int, bool, bytes]":
    """(the offset of the file's last cross-reference section when it is a table, else None; the file's
    size; whether it ends with an end of line; the table's entry of object 0, its 20 bytes, when the table
    begins with it, else b"")."""
    with path.open("rb") as f:
        size = f.seek(0, 2)
        f.seek(max(0, size - _TAIL_BYTES))
        end = _TAIL.search(f.read())
        if end is None:
            return None, size, False, b""
        offset = int(end.group(1))
        f.seek(offset)
        head = f.read(64) if offset < size else b""
        table = _TABLE.match(head)
        if table is None:
            return None, size, bool(end.group(2)), b""
        return offset, size, bool(end.group(2)), table.group("free") or b""
