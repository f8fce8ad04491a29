"""The output folder a command may write: refused unless missing, empty or an earlier build; the diff's --out.

Reads: the folder --out names and its marker. Writes: nothing (write_file: one file, in one step).
Standard library only (see outdir/__init__.py).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.errors import LawbookError
from .marker import MARKER, inside, read_marker, shown, whose
from .ledger import foreign
from .removal import names

if TYPE_CHECKING:
    from typing import NoReturn

# -- the output folder --------------------------------------------------------------------------------

WHOLE = "a build replaces its output folder as a whole"
OWN_FOLDER = "give --out a folder of its own, e.g. --out build"


def check_target(out: str | os.PathLike[str], sources: str | os.PathLike[str]) -> Path:
    """The absolute path of output folder `out` when a build may replace it; else LawbookError (status 2)
    saying why and what to do. Refused: an empty name, /, the sources folder, a folder inside it or
    containing it, the current folder or one containing it, the home folder or one containing it, a
    file, a symbolic link, and a folder holding anything the build did not write. Nothing is changed."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no folder", fix=OWN_FOLDER)
    path = Path(os.path.abspath(out))
    where = str(out)

    def refuse(what: str, fix: str = OWN_FOLDER, why: str = WHOLE) -> NoReturn:
        raise LawbookError(f"cannot build into {what}: {why}", file=where, fix=fix)

    if path.is_symlink():
        refuse(f"a symbolic link (to {os.readlink(path)})", "give the folder itself, or a folder of its own, "
               "e.g. --out build", "the build would replace the link; it was left as it is")
    real, src, cwd, home = path.resolve(), Path(sources).resolve(), Path.cwd().resolve(), Path.home().resolve()
    for folder, name in ((Path(real.anchor), "the root folder"), (cwd, "the current folder"),
                         (src, "the sources folder"), (home, "your home folder")):
        if real == folder:
            refuse(name)
    for folder, name in ((src, "the sources folder"), (cwd, "the current folder"), (home, "your home folder")):
        if inside(folder, real) and folder != Path(folder.anchor):
            refuse(f"a folder that contains {name} ({shown(folder)})")
    if inside(real, src):
        refuse(f"a folder inside the sources folder ({shown(src)})", why="the sources folder holds the received "
               "files and the manifest only")
    if not real.exists():
        return real
    if not real.is_dir():
        refuse("a file", "give a folder that is missing, empty or an earlier build, e.g. --out build",
               "--out names a folder; the file was left as it is")
    check_replaceable(real, where)
    return real


def check_replaceable(folder: str | os.PathLike[str], where: str | None = None, why: str = WHOLE) -> None:
    """LawbookError unless `folder` is missing, empty, or a build standing where the build put it (`whose`:
    not a copy or a move) holding only what the build wrote; `why` the build needs that."""
    folder = Path(folder)
    where = where or shown(folder)
    if not os.path.lexists(folder):
        return
    if folder.is_symlink() or not folder.is_dir():
        raise LawbookError(f"cannot write a build there: it is not a folder the build made; {why}", file=where,
                           fix="move it away, or give another --out")
    marker = read_marker(folder)
    mine = whose(folder, marker) if marker is not None else None
    if mine:
        raise LawbookError(f"cannot build into this folder: {mine}; {why}", file=where,
                           fix=f"give another --out; if you moved the build here yourself, remove it once "
                               f"(rm -r {where}) and build again")
    left = foreign(folder, marker)
    if not left:
        return
    listed = names(left)
    if marker is not None:
        raise LawbookError(f"cannot build into this folder: it holds {listed}, which the build did not write; "
                           f"{why}", file=where,
                           fix=f"move {'it' if len(left) == 1 else 'them'} out of {where}, or give another --out")
    if (folder / ".lawbook-stamp.json").is_file():
        raise LawbookError(f"cannot build into this folder: it has no {MARKER}, so nothing says its files "
                           f"({listed}) are all the build's (builds of older versions were not marked); {why}",
                           file=where, fix=f"if it is an old build, remove it once yourself (rm -r {where}); "
                                           f"else give another --out")
    raise LawbookError(f"cannot build into a folder that holds files the build did not write ({listed}); {why}",
                       file=where, fix="give a new or empty folder, e.g. --out build, or move those files away")


def folder_mode(folder: str | os.PathLike[str]) -> int | None:
    """The permission bits of an existing folder (kept across builds), or None."""
    try:
        return os.stat(folder).st_mode & 0o7777
    except FileNotFoundError:
        return None


# -- files written by other commands -------------------------------------------------------------------

# A diff output of each --format, recognised by its beginning (pipeline/diff/render.py, templates/diff/).
DIFF_OUTPUT = [
    re.compile(rb'\{\s*"format": "lawbook-diff",'),
    re.compile(rb"\s*<!DOCTYPE html>.*?<title>Spelregels \d{4} \xe2\x86\x92 \d{4}: wat is er gewijzigd</title>",
               re.DOTALL),
    re.compile(rb"Editions \d{4} \xe2\x86\x92 \d{4}\narticles: "),
]


def check_diff_out(out: str | os.PathLike[str], sources: str | os.PathLike[str]) -> Path:
    """The path `diff --out` may write, or LawbookError (status 2). Refused: a path in the sources folder,
    one inside a build folder (the next build would refuse it), a folder, a symbolic link, and an
    existing file that is not a diff lawbook wrote (recognised by its beginning)."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no file", fix="give the file to write, e.g. --out diff.html")
    path = Path(os.path.abspath(out))
    where = str(out)
    src = Path(sources).resolve()
    if inside(path.resolve(), src):
        raise LawbookError(f"will not write the diff into the sources folder {shown(src)}: it holds the received "
                           f"files and the manifest", file=where, fix="give a --out path outside the sources folder")
    for folder in path.resolve().parents:
        if read_marker(folder) is not None:
            raise LawbookError(f"will not write the diff into the build folder {shown(folder)}: the next build "
                               f"replaces that folder and refuses files it did not write", file=where,
                               fix="give a --out path outside the build folder")
    if path.is_symlink():
        raise LawbookError("will not write the diff over a symbolic link", file=where,
                           fix="give the path of a new file, or of an earlier diff")
    if path.exists():
        if not path.is_file():
            raise LawbookError("will not write the diff over something that is not a file", file=where,
                               fix="give the path of a new file, or of an earlier diff")
        with open(path, "rb") as f:
            head = f.read(4096)
        if not any(p.match(head) for p in DIFF_OUTPUT):
            raise LawbookError("will not write the diff over this file: it is not a diff lawbook wrote",
                               file=where, fix="give the path of a new file, or remove that file first")
    return path


def write_file(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` in one step: a temporary file beside it, then a rename."""
    path = Path(path)
    import secrets

    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
