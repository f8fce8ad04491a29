"""The folders and files a command may replace or write, and the marker that makes a folder a build's own.

A build replaces its output folder as a whole, so it builds only into a folder that is missing,
empty, or an earlier lawbook build holding nothing the build did not write. It recognises its
own folders by the marker .lawbook-build.json, written into every folder the build makes (the
output folder, its temporaries X.tmp-PID-…, X.failed and X.old-PID) the moment it is made:

    {"lawbook": "build", "format": 1, "complete": false}                  while being written
    {"lawbook": "build", "format": 1, "complete": true,
     "folders": [...], "files": {"corpus.xml": "<sha256>", ...},           a finished build
     "stats": {"corpus.xml": [size, mtime_ns, ctime_ns, inode], ...}}

A folder with an unfinished marker is wholly the build's (nobody else writes into a temporary).
Of a finished build only the files and folders listed are the build's; anything else in it is
someone's file, so the build refuses the folder and names it. Only marked folders are ever
deleted (and, when replaced, a folder that is empty or holds only lawbook's tool outputs). The no-op check and the reuse of an unchanged edition's files compare each
file with the sha256 recorded here; the no-op check hashes only a file whose size, times or inode
differ from those recorded with it ("stats").

Reads: the folder named by --out, its marker, the files recorded in it. Writes: markers only.
Standard library only: the no-op check (cli → cache.up_to_date) uses this before anything heavy
is imported, and `make clean` runs `python -m pipeline.build.outdir clean build` without the venv.
"""
import hashlib
import json
import os
import re
import sys
from pathlib import Path

from ..core.errors import LawbookError

MARKER = ".lawbook-build.json"
FORMAT = 1
# What lawbook's other commands write into a build folder (make bench, make bench-peers, make
# screenshots): the build's own too, replaced with the rest by the next build.
TOOL_OUTPUTS = {"bench.json", "bench.txt", "bench-peers.json", "screenshots"}
SHOWN = 3  # names shown in a message about files the build did not write


def shown(path):
    """`path` as a person would type it: relative to the working folder when inside it."""
    path = Path(path)
    try:
        return str(path.relative_to(Path.cwd())) or "."
    except ValueError:
        return str(path)


def _inside(path, folder):
    """Whether `path` is `folder` or below it (both resolved)."""
    return path == folder or folder in path.parents


# -- the marker --------------------------------------------------------------------------------------

def read_marker(folder):
    """The marker of `folder` as a dict, or None when `folder` is not a real folder with a valid marker."""
    folder = Path(folder)
    try:
        if folder.is_symlink() or not folder.is_dir():
            return None
        with open(folder / MARKER, "rb", opener=_no_follow) as f:
            data = json.loads(f.read(16 * 1024 * 1024))
    except (OSError, ValueError):
        return None
    if not (isinstance(data, dict) and data.get("lawbook") == "build" and data.get("format") == FORMAT):
        return None
    if data.get("complete") is not True:
        return {"complete": False}
    files, folders = data.get("files"), data.get("folders")
    if not (isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items())
            and isinstance(folders, list) and all(isinstance(d, str) for d in folders)):
        return None
    stats = data.get("stats")
    if not (isinstance(stats, dict) and all(isinstance(v, list) for v in stats.values())):
        stats = {}  # an older marker: every file is hashed
    try:
        written = os.stat(folder / MARKER).st_mtime_ns
    except OSError:
        written = 0
    return {"complete": True, "files": files, "folders": set(folders), "stats": stats, "written": written}


def _no_follow(path, flags):
    return os.open(path, flags | os.O_NOFOLLOW)


def is_marked(folder):
    return read_marker(folder) is not None


def _write_marker(folder, data):
    tmp = Path(folder) / f"{MARKER}.{os.getpid()}"
    tmp.write_text(json.dumps({"lawbook": "build", "format": FORMAT, **data}, indent=1, sort_keys=True) + "\n",
                   encoding="utf-8")
    os.replace(tmp, Path(folder) / MARKER)


def make_temp(target):
    """A new folder `<target>.tmp-PID-RANDOM` beside `target`, marked as the build's from the start.
    Made with mode 0777 less the umask (the mode a new output folder gets)."""
    import secrets  # here: the no-op check (intact) needs neither secrets nor shutil

    target = Path(target)
    while True:
        path = target.with_name(f"{target.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            os.mkdir(path, 0o777)
            break
        except FileExistsError:
            continue
    _write_marker(path, {"complete": False})
    return path


def entries(folder):
    """(relative path, "dir" | "file" | "other") of everything below `folder`, symbolic links not followed."""
    folder = Path(folder)
    stack = [""]
    while stack:
        rel = stack.pop()
        with os.scandir(folder / rel if rel else folder) as it:
            for e in sorted(it, key=lambda e: e.name):
                path = f"{rel}/{e.name}" if rel else e.name
                if e.is_dir(follow_symlinks=False):
                    yield path, "dir"
                    stack.append(path)
                elif e.is_file(follow_symlinks=False):
                    yield path, "file"
                else:
                    yield path, "other"


def sha256_of(path):
    with open(path, "rb", opener=_no_follow) as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _stat_of(path):
    """What changes whenever a file's bytes change (its size, times and inode), as the marker records it."""
    st = os.lstat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def record(folder):
    """Mark `folder` (a build just written) finished, listing every folder and file in it with its sha256,
    and with each file's size, times and inode (`stats`: intact() hashes only a file whose stat changed)."""
    folders, files, stats = [], {}, {}
    for rel, kind in entries(folder):
        if rel == MARKER:
            continue
        if kind == "dir":
            folders.append(rel)
        elif kind == "file":
            # Stat before hashing: a file written meanwhile then differs from its stat.
            stats[rel] = _stat_of(Path(folder) / rel)
            files[rel] = sha256_of(Path(folder) / rel)
        else:  # a build writes only folders and files: anything else is recorded as a file, and fails to verify
            files[rel] = ""
    _write_marker(folder, {"complete": True, "folders": sorted(folders), "files": files, "stats": stats})


def foreign(folder, marker=None):
    """What in `folder` the build did not write, as relative paths (a folder without its contents).
    Without a marker everything is foreign except lawbook's tool outputs; with an unfinished marker
    nothing is."""
    marker = marker if marker is not None else read_marker(folder)
    if marker is not None and not marker["complete"]:
        return []
    found, skip = [], ()
    for rel, kind in entries(folder):
        if rel.startswith(skip):
            continue
        top = rel.split("/", 1)[0]
        if rel == MARKER and marker is not None or top in TOOL_OUTPUTS:
            continue
        ours = marker is not None and (rel in marker["folders"] if kind == "dir" else rel in marker["files"])
        if not ours:
            found.append(rel)
            if kind == "dir":
                skip += (rel + "/",)
    return found


def intact(folder):
    """True when `folder` is a finished build whose every recorded file is there with its recorded sha256
    and which holds nothing else (lawbook's tool outputs aside)."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"] or foreign(folder, marker):
        return False
    return all(os.path.isdir(Path(folder) / d) for d in marker["folders"]) and \
        all(_unchanged(Path(folder) / rel, marker, rel) or _matches(Path(folder) / rel, sha)
            for rel, sha in marker["files"].items())


def _unchanged(path, marker, rel):
    """Whether the file has the size, times and inode the marker recorded, and they tell: its times are
    older than the marker's own (a file rewritten within the clock tick the marker was written in could
    keep its times, so such a file is hashed)."""
    recorded = marker["stats"].get(rel)
    if not recorded or len(recorded) != 4 or max(recorded[1], recorded[2]) >= marker["written"]:
        return False
    try:
        return _stat_of(path) == recorded
    except OSError:
        return False


def _matches(path, sha):
    try:
        return sha256_of(path) == sha
    except OSError:
        return False


def verified_files(folder, names=()):
    """The files recorded in `folder`'s finished marker ({relative path: sha256}), or {} when it has none
    or when any of `names` (files the caller relies on) is missing or differs from its record."""
    marker = read_marker(folder)
    if marker is None or not marker["complete"]:
        return {}
    files = marker["files"]
    if not all(name in files and _matches(Path(folder) / name, files[name]) for name in names):
        return {}
    return files


def discard(folder):
    """Remove a folder the build made: marked, or holding nothing but lawbook's tool outputs (or nothing).
    A folder holding anything the build did not write is left where it is, with a warning. Returns
    whether it is gone."""
    folder = Path(folder)
    if not os.path.lexists(folder):
        return True
    left = ["it is not a folder"] if folder.is_symlink() or not folder.is_dir() else foreign(folder)
    if left:
        names = ", ".join(left[:SHOWN]) + (f" and {len(left) - SHOWN} more" if len(left) > SHOWN else "")
        print(f"lawbook: warning: {shown(folder)}: left in place: it holds {names}, which the build did not "
              f"write\n  fix: move those away, or remove the folder yourself if it is yours to remove", file=sys.stderr)
        return False
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()


# -- the output folder --------------------------------------------------------------------------------

WHOLE = "a build replaces its output folder as a whole"
OWN_FOLDER = "give --out a folder of its own, e.g. --out build"


def check_target(out, sources):
    """The absolute path of output folder `out` when a build may replace it; else LawbookError (status 2)
    saying why and what to do. Refused: an empty name, /, the sources folder, a folder inside it or
    containing it, the current folder or one containing it, the home folder or one containing it, a
    file, a symbolic link, and a folder holding anything the build did not write. Nothing is changed."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no folder", fix=OWN_FOLDER)
    path = Path(os.path.abspath(out))
    where = str(out)

    def refuse(what, fix=OWN_FOLDER, why=WHOLE):
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
        if _inside(folder, real) and folder != Path(folder.anchor):
            refuse(f"a folder that contains {name} ({shown(folder)})")
    if _inside(real, src):
        refuse(f"a folder inside the sources folder ({shown(src)})", why="the sources folder holds the received "
               "files and the manifest only")
    if not real.exists():
        return real
    if not real.is_dir():
        refuse("a file", "give a folder that is missing, empty or an earlier build, e.g. --out build",
               "--out names a folder; the file was left as it is")
    check_replaceable(real, where)
    return real


def check_replaceable(folder, where=None, why=WHOLE):
    """LawbookError unless `folder` is missing, empty, or holds only what the build wrote; `why` the
    build needs that."""
    folder = Path(folder)
    where = where or shown(folder)
    if not os.path.lexists(folder):
        return
    if folder.is_symlink() or not folder.is_dir():
        raise LawbookError(f"cannot write a build there: it is not a folder the build made; {why}", file=where,
                           fix="move it away, or give another --out")
    marker = read_marker(folder)
    left = foreign(folder, marker)
    if not left:
        return
    names = ", ".join(left[:SHOWN]) + (f" and {len(left) - SHOWN} more" if len(left) > SHOWN else "")
    if marker is not None:
        raise LawbookError(f"cannot build into this folder: it holds {names}, which the build did not write; "
                           f"{why}", file=where,
                           fix=f"move {'it' if len(left) == 1 else 'them'} out of {where}, or give another --out")
    if (folder / ".lawbook-stamp.json").is_file():
        raise LawbookError(f"cannot build into this folder: it has no {MARKER}, so nothing says its files "
                           f"({names}) are all the build's (builds of older versions were not marked); {why}",
                           file=where, fix=f"if it is an old build, remove it once yourself (rm -r {where}); "
                                           f"else give another --out")
    raise LawbookError(f"cannot build into a folder that holds files the build did not write ({names}); {why}",
                       file=where, fix="give a new or empty folder, e.g. --out build, or move those files away")


def folder_mode(folder):
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


def check_diff_out(out, sources):
    """The path `diff --out` may write, or LawbookError (status 2). Refused: a path in the sources folder,
    one inside a build folder (the next build would refuse it), a folder, a symbolic link, and an
    existing file that is not a diff lawbook wrote (recognised by its beginning)."""
    if not str(out).strip():
        raise LawbookError("--out is empty: it names no file", fix="give the file to write, e.g. --out diff.html")
    path = Path(os.path.abspath(out))
    where = str(out)
    src = Path(sources).resolve()
    if _inside(path.resolve(), src):
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


def write_file(path, text):
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


def clean(target):
    """Remove the build folder `target`, its temporaries and its failed build's report: each only when it
    is the build's own (outdir.discard); any other folder, whatever its name, is left with a warning.
    Returns the folders left."""
    target = Path(os.path.abspath(target))
    pattern = re.compile(rf"{re.escape(target.name)}(?:\.failed)?(?:\.(?:tmp|old)-\d+(?:-.*)?)?")
    found = [p for p in sorted(target.parent.iterdir()) if pattern.fullmatch(p.name)] \
        if target.parent.is_dir() else []
    return [path for path in found if not discard(path)]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "clean":
        sys.exit("usage: python -m pipeline.build.outdir clean FOLDER")
    clean(sys.argv[2])
