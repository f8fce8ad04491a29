"""Incremental builds: what a rebuild may take from earlier builds instead of redoing.

Three mechanisms, each keyed so that it can only ever give what a full build gives:

  up to date   build/.lawbook-stamp.json holds the digest of every input of the build
               that made build/ (each file in the sources folder, the code version,
               the output options). When the inputs hash to the same digest and every
               file of build/ is still the one the build wrote (its sha256 in the
               marker .lawbook-build.json, see outdir/), build/ is what a build
               would write, and the build is skipped.
  readings     per source: the Reading its reader made, before repair, and the reader's
               report entries, as JSON in readings/ of the cache folder (default_folder:
               the one given, else $XDG_CACHE_HOME/lawbook or ~/.cache/lawbook; `make` gives
               the project's .cache/lawbook). Never a folder above the sources that the
               user did not name: a build from ~/x/sources writes nothing into ~/x. Keyed by the sha256 of the file's bytes, its manifest entry, the
               book's language and the code version: a reader depends on nothing else. The repair stage runs
               on every build, because a printed line-end hyphen is decided with the
               whole book's vocabulary, which a change to any source may change.
  editions     per edition: a digest of its corpus subtree and its sources' report
               entries. An output stage that renders one edition at a time asks
               reuse_edition() whether that edition is unchanged since build/ was
               made; if so its previous files are copied instead of rendered, each
               checked against the sha256 the previous build recorded.

The cache holds data only (JSON, never pickle: reading it cannot run code). Each entry carries
its key and the sha256 of its content; an entry that does not verify, or whose content has
not the shape of a Reading, is ignored with a warning and made again. The cache folder is used
only when it is the user's own (owned by them, not writable by group or others); an unsafe or
unwritable cache is a warning, never a failure.

The code version is the sha256 of the pipeline package's source files and of the
templates/ and schema/ folders: any code change invalidates everything.

Why these and core/memo.py are not one cache type: they share only "a key, then a value". The stamp
holds no entries at all (one digest over every input, and a file's stat to skip hashing it again);
the readings are files on disk that another process reads, so they are data only, verified by their
own sha256 and refused when their shape is wrong; a memo lives in one process, holds the objects
themselves, is bounded by count, and is taken only when the answers it recorded from the whole book
are given again. One class over the three would need each of these as an option and would hide which
guarantee a caller relies on.

The stamp also records each file it hashed for the digest with its size, times and inode
("hashed"); the next no-op check hashes again only a file whose stat differs, as git does with its
index. A file changed in the two seconds before it was hashed is not recorded (a change in the same
clock tick could keep its times): it is hashed every time until it is older.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from . import outdir
from ..core.options import Options

if TYPE_CHECKING:  # the no-op check imports this module: these are for the type checker only
    from collections.abc import Iterable, Mapping

    from lxml import etree

    from ..core.memo import Memo
    from ..core.model import Rules
    from ..corpus.stages import Entry
    from ..reading.manifest import Source

PACKAGE = Path(__file__).resolve().parents[1]
# Outside the package but part of what the code makes of the sources.
CODE_FOLDERS = [PACKAGE, PACKAGE.parent / "templates", PACKAGE.parent / "schema"]
CACHE_NAME = "lawbook"  # the cache's folder in $XDG_CACHE_HOME (or ~/.cache)
STAMP = ".lawbook-stamp.json"
FORMAT = 3  # of the cache entries and the stamp; bump when their shape changes
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # a reading of a source at the 8 MiB limit is well under this

# A file's record: [sha256 hex, size, mtime_ns, ctime_ns, inode] (a list: the stamp's JSON holds it so).
FileRecord = list[str | int]

_code_version: str | None = None
HEX = set("0123456789abcdef")
RECENT_NS = 2_000_000_000  # a file changed this recently when hashed is hashed again next time
_code_hashed: dict[str, FileRecord] = {}  # absolute path -> the record of each code file
# The same for the code and the sources of the last input_digest: the stamp records them.
_hashed: dict[str, FileRecord] = {}
# The same from the stamp of the build being checked (up_to_date): a hash it may reuse.
_recorded: dict[str, FileRecord] = {}


def default_folder(given: str | os.PathLike[str] | None = None) -> Path | None:
    """Where the cache of readings is: `given` (the cache_dir option, `--cache-dir`) when given; else
    $XDG_CACHE_HOME/lawbook when that variable holds an absolute path (the XDG base directory rule: a
    relative one is ignored); else ~/.cache/lawbook. None when there is no home to put it in: the build
    then reads every source. A cache entry is keyed by the source's bytes, its manifest entry, the
    language and the code version, so one cache may serve any number of projects."""
    if given is not None:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / CACHE_NAME
    try:
        return Path.home() / ".cache" / CACHE_NAME
    except (RuntimeError, KeyError):  # no HOME and no passwd entry
        return None


def _file_digest(path: str, records: dict[str, FileRecord]) -> bytes:
    """sha256 (bytes) of the file at `path` (absolute); the stamp's record of it when its stat is the one
    recorded. The stat is taken before the bytes are read: a file changed in between is recorded with
    its new content and its old stat, so it is hashed again next time."""
    st = os.stat(path)
    key, now = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino], time.time_ns()
    known = _recorded.get(path)
    if known and known[1:] == key and isinstance(known[0], str):  # (a str: _a_record checked it)
        sha = known[0]
    else:
        with open(path, "rb") as f:
            sha = hashlib.sha256(f.read()).hexdigest()
    if now - max(st.st_mtime_ns, st.st_ctime_ns) > RECENT_NS:
        records[path] = [sha, *key]
    return bytes.fromhex(sha)


def _code_files(folder: str) -> list[str]:
    """Every file below `folder` but compiled Python, in the order of their paths' parts (os.walk and
    strings: pathlib's objects were most of the no-op check's time)."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.join(root, name) for name in files if not name.endswith(".pyc")]
    return sorted(found, key=lambda path: path.split(os.sep))


def code_version() -> str:
    """sha256 over every file of the pipeline package, templates/ and schema/ (paths and bytes)."""
    global _code_version
    if _code_version is None:
        digest = hashlib.sha256(f"format {FORMAT}".encode())
        for folder in CODE_FOLDERS:
            if not folder.is_dir():
                continue
            start = len(str(folder.parent)) + 1
            for path in _code_files(str(folder)):
                digest.update(path[start:].encode() + b"\0")
                digest.update(_file_digest(path, _code_hashed))
        _code_version = digest.hexdigest()
    return _code_version


def settings(options: Options | dict[str, object] | None = None) -> str:
    """What besides the sources and the code changes the outputs: the options that are not neutral
    (--no-commentary) and SOURCE_DATE_EPOCH (the date printed in the PDF)."""
    opts = Options.of(options).digest_fields()
    opts["SOURCE_DATE_EPOCH"] = os.environ.get("SOURCE_DATE_EPOCH")
    return json.dumps(opts, sort_keys=True, default=str)


def input_digest(sources_dir: str | os.PathLike[str], options: Options | dict[str, object] | None = None) -> str:
    """The digest of everything a build reads: each file in the sources folder (the manifest too;
    a file not in the manifest is an error, so it counts as well), the code version and the settings."""
    digest = hashlib.sha256(code_version().encode())
    digest.update(settings(options).encode())
    _hashed.clear()
    _hashed.update(_code_hashed)
    folder = os.path.abspath(sources_dir)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        # Never follow a link or open a FIFO here: the build refuses them, so they only need to
        # change the digest (by name and kind) for the build to run and say so.
        path = os.path.join(folder, name)
        mode = os.lstat(path).st_mode
        if stat.S_ISREG(mode):
            digest.update(os.fsencode(name) + b"\0" + _file_digest(path, _hashed))
        elif not stat.S_ISDIR(mode):
            digest.update(os.fsencode(name) + b"\0" + f"kind {stat.S_IFMT(mode)}".encode())
    return digest.hexdigest()


def read_stamp(out_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The stamp of the build in `out_dir`, or {} when there is none (or it is unreadable)."""
    try:
        data = json.loads((Path(out_dir) / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def up_to_date(sources_dir: str | os.PathLike[str], out_dir: str | os.PathLike[str],
               options: Options | dict[str, object] | None = None) -> bool:
    """True when `out_dir` holds a complete, error-free build of exactly these inputs, every file of it
    as the build wrote it (outdir.intact). Reads the sources, the stamp and the outputs. When it is, removes
    what a killed build left beside it (outdir.clear_leftovers: only its marked temporaries made there);
    writes nothing else."""
    if Options.of(options).force:
        return False
    stamp = read_stamp(out_dir)
    if not stamp:
        return False
    recorded = stamp.get("hashed")
    if isinstance(recorded, dict):
        _recorded.update({name: r for name, r in recorded.items() if _a_record(r)})
    if not (stamp.get("inputs") == input_digest(sources_dir, options) and outdir.intact(out_dir)):
        return False
    outdir.clear_leftovers(out_dir)  # nothing to build, but a killed build's temporaries to remove
    return True


def _a_record(value: object) -> bool:
    """Whether a stamp's record has the shape _file_digest gives it: [sha256 hex, four integers]."""
    return (type(value) is list and len(value) == 5 and type(value[0]) is str and len(value[0]) == 64
            and set(value[0]) <= HEX and all(type(v) is int for v in value[1:]))


def outputs_version(options: Options | dict[str, object] | None = None) -> str:
    """What the outputs' file keys (outputs/keyed.py) leave out, the code version and the settings: keys
    recorded under another are not offered (Build.keys)."""
    return hashlib.sha256((code_version() + "\0" + settings(options)).encode()).hexdigest()


def write_stamp(folder: str | os.PathLike[str], inputs: str, editions: Mapping[str, str | None],
                options: Options | dict[str, object] | None = None) -> None:
    """Record in `folder` (the build being written) the input digest, the per-edition digests and the
    version of the outputs' file keys."""
    data = {"format": FORMAT, "inputs": inputs, "editions": editions, "hashed": _hashed,
            "outputs": outputs_version(options)}
    (Path(folder) / STAMP).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# -- readings ----------------------------------------------------------------------------------------
# The records (Entry, log_entries, replay) are the corpus stages': corpus/stages.py.

def warn(path: str | os.PathLike[str], message: str, fix: str) -> None:
    """A problem with the cache: the build goes on without it (or without that entry)."""
    print(f"lawbook: warning: {outdir.shown(path)}: {message}\n  fix: {fix}", file=sys.stderr)


def unsafe(folder: str | os.PathLike[str]) -> str | None:
    """Why `folder` may not hold the cache (others could plant or change entries), or None when it is
    missing or the user's own: a real folder, owned by this user, not writable by group or others."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return None
    except OSError as e:
        return f"it cannot be used ({e.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "it is a symbolic link" if stat.S_ISLNK(st.st_mode) else "it is not a folder"
    if st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"it can be written by other users (mode {st.st_mode & 0o777:o})"
    return None


class ReadingCache:
    """Cached readings in `folder`/readings, one JSON file per key. Counts hits and misses per build.
    With use=False (a forced build) nothing is taken from the cache, but what is read is stored.
    folder=None: no cache at all (there is no home folder to keep one in)."""

    def __init__(self, folder: str | os.PathLike[str] | None, use: bool = True) -> None:
        self.root = Path(folder if folder is not None else os.devnull)
        self.folder = self.root / "readings"
        self.use = use and folder is not None
        # decided on first use: whether the folders are the user's own
        self.usable: bool | None = None if folder is not None else False
        self.writable = folder is not None  # False after the first failed write: one warning per build
        self.hits: list[str] = []  # source names, in manifest order
        self.misses: list[str] = []
        self.keys: dict[str, str | None] = {}  # source name -> cache key
        self.entries: dict[str, Entry] = {}  # source name -> Entry used in this build
        self.inputs: str | None = None  # input_digest() taken when the build began reading
        self.editions: dict[str, str | None] = {}  # edition -> edition_digest(), once the corpus is complete

    @staticmethod
    def key(source: Source, data: bytes) -> str:
        manifest_entry = json.dumps([source.name, source.edition, source.format, source.encoding, source.language])
        return hashlib.sha256(f"{code_version()}\0{manifest_entry}\0".encode() + hashlib.sha256(data).digest()) \
            .hexdigest()

    def _safe(self) -> bool:
        if self.usable is None:
            self.usable = True
            for folder in (self.root, self.folder):
                reason = unsafe(folder)
                if reason:
                    warn(folder, f"not using the cache: {reason}",
                         f"remove {outdir.shown(folder)}, or make it yours: chown $USER and chmod go-w")
                    self.usable = False
                    break
        return self.usable

    def get(self, key: str | None, source: Source) -> Entry | None:
        """The Entry stored for `key` (made from `source`), or None: none stored, or one that does not
        verify or has the wrong shape (ignored with a warning: the source is read again)."""
        if not self.use or not self._safe():
            return None
        path = self.folder / f"{key}.json"
        try:
            with open(path, "rb", opener=outdir.no_follow) as f:
                data = f.read(MAX_ENTRY_BYTES + 1)
        except FileNotFoundError:
            return None
        except OSError as e:
            warn(path, f"cache entry ignored: {e.strerror}", "none needed: the source is read again")
            return None
        try:
            return read_entry(data, key, source)
        except ValueError as e:
            warn(path, f"cache entry ignored: {e}", "none needed: the source is read again and the entry made anew")
            return None

    def put(self, key: str | None, entry: Entry) -> None:
        """Store `entry` (serialised now: later stages change the Reading's blocks in place). A cache
        that cannot be written is a warning, once; the build goes on."""
        if not self.writable or not self._safe():
            return
        try:
            self.root.mkdir(mode=0o700, parents=True, exist_ok=True)
            self.folder.mkdir(mode=0o700, exist_ok=True)
            self.usable = None
            if not self._safe():  # made by someone else first
                return
            tmp = self.folder / f".{key}.{os.getpid()}"
            assert key is not None  # key() gives one (a Store's key is None only in NoStore)
            tmp.write_bytes(entry_to_json(entry, key))
            os.replace(tmp, self.folder / f"{key}.json")
        except OSError as e:
            self.writable = False
            warn(e.filename or self.folder, f"cannot write the cache: {e.strerror}; the build goes on without it",
                 "make the folder writable, or remove it")


# -- entries as JSON ---------------------------------------------------------------------------------

# An entry's content is a Reading and the reader's report entries, as JSON data whose shape comes from
# the dataclasses themselves (core/records.py: model.Reading and what it holds, report.Entry): a field
# added to the model is stored, checked and read back with no edit here.

def content_shape() -> dict[str, object]:
    """The shape of an entry's content (records.check_shape)."""
    from ..core import records
    from ..core.model import Reading
    from ..core.report import Entry as LogEntry

    return {"reading": records.shape(Reading), "read_log": [records.shape(LogEntry)]}


def _canonical(content: object) -> bytes:
    return json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")


def entry_to_json(entry: Entry, key: str) -> bytes:
    """The bytes stored for `entry`: its key, its content and the sha256 of the content."""
    from ..core import records
    from ..core.model import Reading

    # records.to_data, not dataclasses.asdict: that deep-copies every list of every block (two thirds of
    # storing a forced build's readings); JSON writes the tuples of `pieces` as lists either way.
    content = {"reading": records.to_data(entry.reading, Reading), "read_log": entry.read_log}
    body = _canonical(content)
    return b'{"format":%d,"key":"%s","sha256":"%s","content":%s}\n' % (
        FORMAT, key.encode(), hashlib.sha256(body).hexdigest().encode(), body)


_read: list[Memo[bytes]] = []  # the memo of read_entry, made when first needed (the no-op check imports this module)


def read_entry(data: bytes, key: str | None, source: Source) -> Entry:
    """entry_from_json(data, key, source), taken from a memo of this process where the same bytes were read
    for the same key and source before: a rebuild in watch mode reads every unchanged source's entry again,
    and checking and converting it was most of parse_sources. A new Entry each time (stages change it)."""
    import pickle
    from ..core.memo import Memo

    if not _read:
        _read.append(Memo("readings"))
    memo = _read[0]
    name = (hashlib.sha256(data).digest(), key, source.name, source.edition)
    known = memo.get(name)
    if known is not None:
        memo.reused += 1
        entry: Entry = pickle.loads(known)
        entry.reading.rules = _rules(entry.reading.format)
        return entry
    entry = entry_from_json(data, key, source)
    rules, entry.reading.rules = entry.reading.rules, None  # (the format's own object, set again on use)
    memo.put(name, pickle.dumps(entry, protocol=5))
    entry.reading.rules = rules
    return entry


def _rules(format_name: str) -> Rules:
    from ..reading import formats

    return formats.FORMATS[format_name].rules


def entry_from_json(data: bytes, key: str | None, source: Source) -> Entry:
    """The Entry in `data` when it is one for `key`, made from `source`; else ValueError saying why."""
    if len(data) > MAX_ENTRY_BYTES:
        raise ValueError(f"it is over {MAX_ENTRY_BYTES // 2**20} MiB")
    try:
        stored = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"it is not JSON ({e})") from None
    if type(stored) is not dict or set(stored) != {"format", "key", "sha256", "content"}:
        raise ValueError("it is not a cache entry")
    if stored["format"] != FORMAT or stored["key"] != key:
        raise ValueError("it was stored for another key or by another version")
    if stored["sha256"] != hashlib.sha256(_canonical(stored["content"])).hexdigest():
        raise ValueError("its content does not match its sha256 (changed or damaged)")
    # Here, not at the top: the no-op check imports this module and needs neither readers nor stages.
    from ..core import records
    from ..core.model import Reading
    from ..core.report import KINDS
    from ..corpus.stages import Entry
    from ..reading import formats

    content = stored["content"]
    records.check_shape(content, content_shape())
    r = content["reading"]
    if (r["file"], r["edition"]) != (source.name, source.edition):
        raise ValueError(f"it holds the reading of {r['file']} ({r['edition']}), not of {source.name}")
    if r["format"] not in formats.FORMATS:
        raise ValueError(f"it holds a reading of unknown format {r['format']!r}")
    for logged in content["read_log"]:
        if logged["kind"] not in KINDS:
            raise ValueError(f"a report entry of unknown kind {logged['kind']!r}")

    reading = cast(Reading, records.from_data(Reading, r))
    reading.rules = formats.FORMATS[r["format"]].rules
    return Entry(reading, content["read_log"])


# -- editions ----------------------------------------------------------------------------------------

def edition_digest(edition_el: etree._Element, log_entries_of_edition: list[dict[str, Any]],
                   options: Options | dict[str, object] | None = None) -> str:
    """sha256 of one edition's corpus subtree (canonical XML) and its sources' report entries, with the
    code version and the settings: equal digests mean every output of that edition comes out the same."""
    from lxml import etree  # not at the top: the no-op check imports this module and needs no lxml

    digest = hashlib.sha256(code_version().encode())
    digest.update(settings(options).encode())
    digest.update(etree.tostring(edition_el, method="c14n"))
    digest.update(json.dumps(log_entries_of_edition, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


def copy_previous(out_dir: str | os.PathLike[str], tmp: str | os.PathLike[str], paths: Iterable[str],
                  recorded: Mapping[str, str], marker: outdir.FinishedMarker | None = None) -> bool:
    """Copy `paths` (relative to the build folder: files or folders) from the previous build into the one
    being written, each file checked against `recorded` ({relative path: sha256}, the previous build's
    marker). Returns False, copying nothing, when a path has no recorded file or any file is missing or
    differs from its record (damaged since): the stage then renders it again.
    A file whose stat is the one `marker` (the previous build's) records is linked, not copied (a
    hundred pages in milliseconds): builds never write into a file, they write new ones, so the two
    builds' names for it can never differ; where links cannot be made it is copied."""
    out_dir, tmp = Path(out_dir), Path(tmp)
    data: dict[str, bytes] = {}
    linked: list[str] = []
    for p in paths:
        files = [p] if p in recorded else [rel for rel in recorded if rel.startswith(p.rstrip("/") + "/")]
        if not files:
            return False
        for rel in files:
            if marker is not None and outdir.as_recorded(out_dir, marker, rel) and recorded[rel] == marker["files"].get(rel):
                linked.append(rel)
                continue
            try:
                with open(out_dir / rel, "rb", opener=outdir.no_follow) as f:
                    data[rel] = f.read()
            except OSError:
                return False
            if hashlib.sha256(data[rel]).hexdigest() != recorded[rel]:
                return False
    made: set[Path] = set()
    for rel in linked:
        dst = tmp / rel
        if dst.parent not in made:
            dst.parent.mkdir(parents=True, exist_ok=True)
            made.add(dst.parent)
        try:
            os.link(out_dir / rel, dst, follow_symlinks=False)
        except OSError:  # another file system, a link limit: copy it
            with open(out_dir / rel, "rb", opener=outdir.no_follow) as f:
                dst.write_bytes(f.read())
    for rel, content in data.items():
        dst = tmp / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(content)
    return True
